import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { defaultTrackingParams } from "../../src/pipeline/default-tracking-params.js";
import { createTrackingMatcher, mayBeTracking } from "../../src/pipeline/tracking-matcher.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";

// What a pattern list means, written plainly: an exact name or a `prefix*`, ASCII case folded
// (and only ASCII: "İ" is no "i"), an allowlisted name never.
const fold = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
function reference(patterns: readonly string[], keep: readonly string[], name: string): boolean {
  if (keep.includes(name)) return false;
  const lower = fold(name);
  return patterns.some((p) => {
    const q = fold(p);
    return q.endsWith("*") ? lower.startsWith(q.slice(0, -1)) : lower === q;
  });
}

// Names and patterns over a small alphabet, so that they meet: both cases, "_", "%", a digit,
// non-ASCII, and the empty name.
const char = fc.constantFrom("u", "U", "t", "m", "_", "s", "i", "%", "7", "é", "İ", "\u0080");
const word = fc.array(char, { maxLength: 5 }).map((cs) => cs.join(""));
const pattern = fc.tuple(word, fc.boolean()).map(([w, star]) => (star ? `${w}*` : w));

describe("the tracking matcher", () => {
  it("answers as the patterns say, and its pair table never rules out a name they match", () => {
    const reached = { ruledOut: 0, tables: 0, noTable: 0, matched: 0 };
    fc.assert(
      fc.property(
        fc.array(pattern, { maxLength: 6 }),
        fc.array(word, { maxLength: 2 }),
        word,
        (patterns, keep, name) => {
          const matcher = createTrackingMatcher(patterns, keep);
          const want = reference(patterns, keep, name);
          assert.equal(matcher(name), want, `${JSON.stringify(name)} against ${JSON.stringify(patterns)}`);
          if (want) reached.matched++;
          const pairs = matcher.pairs;
          if (pairs === undefined) {
            reached.noTable++;
            return;
          }
          reached.tables++;
          // Read off a longer text, as the fast path reads it.
          const text = `?x=1&${name}=2`;
          const may = mayBeTracking(pairs, text, 5, 5 + name.length);
          if (reference(patterns, [], name)) assert.ok(may, `${JSON.stringify(name)} ruled out`);
          if (!may) reached.ruledOut++;
        },
      ),
      { seed: 20261205, numRuns: fuzzRuns(4000) },
    );
    for (const [branch, count] of Object.entries(reached)) assert.ok(count > 50, `${branch}: only ${count}`);
  });

  it("rules out most names of real links before slicing them, with the built-in list", () => {
    const matcher = createTrackingMatcher(defaultTrackingParams, []);
    const pairs = matcher.pairs;
    assert.ok(pairs !== undefined);
    const names = [
      "page",
      "q",
      "id",
      "v",
      "sort",
      "lang",
      "t",
      "utm_source",
      "gclid",
      "fbclid",
      "_ga",
      "mc_eid",
    ];
    const out = names.filter((n) => !mayBeTracking(pairs, n, 0, n.length));
    assert.deepEqual(out, ["page", "q", "id", "v", "sort", "lang", "t"]);
    for (const n of ["utm_source", "gclid", "fbclid", "_ga", "mc_eid"]) assert.ok(matcher(n), n);
  });
});
