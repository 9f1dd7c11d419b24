import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalize } from "../../src/index.js";
import { loadGoldenCorpus, scoreCorpus } from "../helpers/golden-corpus.js";

// Issue 22: on links as people share them, the identity defaults never merge two resources and
// unite at least 80% of the groups that hold several copies of one resource.
const groups = loadGoldenCorpus();
const score = scoreCorpus(groups, (u) => normalize(u));

describe("the golden corpus (tests/fixtures/golden-corpus)", () => {
  it("holds at least 400 groups, with traps and copies", () => {
    assert.ok(groups.length >= 400, `${groups.length} groups`);
    assert.ok(score.multi >= 150, `${score.multi} groups with several copies`);
    assert.ok(groups.length - score.multi >= 150, "groups of one (traps and plain pages)");
  });

  it("no URL of it throws", () => {
    assert.deepEqual(score.errors, []);
  });

  it("merges no two resources", () => {
    const firm = score.merges.filter((m) => !m.debatable);
    assert.deepEqual(
      firm.map((m) => `${m.a.id} ${m.a.url} ~ ${m.b.id} ${m.b.url} → ${m.key}`),
      [],
    );
  });

  it("unites at least 80% of the same-resource groups", () => {
    const share = score.united / score.multi;
    assert.ok(
      share >= 0.8,
      `${score.united} of ${score.multi} (${(share * 100).toFixed(1)}%); split:\n${score.split
        .map((s) => `${s.id}: ${s.keys.join(" | ")}`)
        .join("\n")}`,
    );
  });

  it("is idempotent on every URL of it", () => {
    for (const g of groups)
      for (const url of g.urls) {
        const once = normalize(url);
        assert.equal(normalize(once), once, `${g.id} ${url}`);
      }
  });
});
