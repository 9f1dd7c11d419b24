import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalize } from "../../src/pipeline/normalize.js";
import { groupLinks } from "../../src/serve/playground/group-links.js";
import { fragmentToState, stateToFragment } from "../../src/serve/playground/permalink.js";

describe("the playground's many-links grouping", () => {
  it("groups by key in first-seen order, lists what failed, ignores blank lines", () => {
    const r = groupLinks(
      ["https://a.test/x?utm_source=1", " ", "ftp://b.test/", "https://c.test/", "https://a.test/x"],
      (u) => normalize(u),
      100,
    );
    assert.deepEqual(r.groups, [
      { key: "https://a.test/x", links: ["https://a.test/x?utm_source=1", "https://a.test/x"] },
      { key: "https://c.test/", links: ["https://c.test/"] },
    ]);
    assert.equal(r.failed.length, 1);
    assert.equal(r.failed[0]?.link, "ftp://b.test/");
    assert.equal(r.skipped, 0);
  });

  it("reads at most max lines and counts the rest", () => {
    const lines = Array.from({ length: 12_000 }, (_, i) => `https://a.test/${i % 10}`);
    let calls = 0;
    const r = groupLinks(
      lines,
      (u) => {
        calls++;
        return normalize(u);
      },
      5_000,
    );
    assert.equal(calls, 5_000);
    assert.equal(r.skipped, 7_000);
    assert.equal(r.groups.length, 10);
  });

  it("the view survives a permalink; an old permalink opens the default view", () => {
    const state = {
      text: "https://a.test/\nhttps://a.test/?gclid=1",
      preset: "identity",
      view: "groups",
    } as const;
    assert.deepEqual(fragmentToState(stateToFragment(state)), state);
    assert.equal(fragmentToState("#u=a.test").view, "each");
  });
});
