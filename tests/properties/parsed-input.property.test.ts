import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalWith, explain, normalize, normalizeResolved } from "../../src/pipeline/normalize.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { parseInput } from "../../src/url/parse-input.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { urlish } from "../helpers/url-arbitraries.js";

const SEED = 20261204;
const RUNS = fuzzRuns(3000);

// The resolver hands the pipeline URLs it has already parsed (the input, every Location) instead
// of their href; that is only sound if a URL and its href normalize alike, and the URL is left as
// it was, since the resolver fetches it afterwards.
describe("normalizing a parsed URL (fast-check, fixed seed)", () => {
  it("gives what its href gives, for every preset, and leaves the URL unchanged", () => {
    const presets = [
      resolveNormalizeOptions(undefined),
      resolveNormalizeOptions({ preset: "rfc3986" }),
      resolveNormalizeOptions({ trailingSlash: "add", sortParams: false }),
    ];
    const reached = { compared: 0, changed: 0, unchanged: 0, ruleApplied: 0, stripped: 0 };
    fc.assert(
      fc.property(urlish, fc.constantFrom(...presets), (raw, options) => {
        let url: URL;
        try {
          url = parseInput(raw, "http").url;
        } catch {
          return;
        }
        const href = url.href;
        let fromString: ReturnType<typeof normalizeResolved>;
        try {
          fromString = normalizeResolved(href, options);
        } catch (error) {
          assert.throws(() => normalizeResolved(url, options), { message: (error as Error).message });
          return;
        }
        const fromUrl = normalizeResolved(url, options);
        assert.deepEqual(fromUrl, fromString, href);
        assert.equal(canonicalWith(url, options), fromString.canonical, href);
        assert.equal(url.href, href, "the URL was changed");
        reached.compared++;
        if (fromString.canonical === href) reached.unchanged++;
        else reached.changed++;
        if (fromString.ruleApplied !== null) reached.ruleApplied++;
        if (fromString.stripped.length > 0) reached.stripped++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 50, `${branch}: only ${count} of ${RUNS} runs reached it`);
  });

  it("refuses a parsed URL outside http(s) as a string would be refused", () => {
    const options = resolveNormalizeOptions(undefined);
    assert.throws(() => canonicalWith(new URL("ftp://a.test/x"), options), { code: "unsupported-scheme" });
  });

  it("leaves the public normalize() and explain() to strings only, as api.md has them", () => {
    const url = new URL("http://a.test/x") as unknown as string;
    assert.throws(() => normalize(url), TypeError);
    assert.throws(() => explain(url), TypeError);
  });
});
