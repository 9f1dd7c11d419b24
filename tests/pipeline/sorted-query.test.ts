import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { removeMatching } from "../../src/pipeline/generic-pass.js";
import { MAX_SORTED_PAIRS, MAX_SORTED_QUERY, sortedQuery } from "../../src/pipeline/sorted-query.js";
import { createTrackingMatcher } from "../../src/pipeline/tracking-matcher.js";
import { joinQuery, sortQueryParams, splitQuery } from "../../src/url/query-params.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";

// The generic pass's own steps on a query: split, tracking pairs removed (names listed in input
// order), sorted, joined.
function generic(
  query: string,
  patterns: readonly string[] | undefined,
): { query: string; removed: string[] } {
  const removed: string[] = [];
  const params = splitQuery(query);
  const kept =
    patterns === undefined ? params : removeMatching(params, createTrackingMatcher(patterns, []), removed);
  return { query: joinQuery(sortQueryParams(kept)), removed };
}

// Pairs over a small alphabet so that names and values collide: bare names, empty values, "=" in
// a value, repeated names, empty segments, code units on both sides of ASCII.
const piece = fc.array(fc.constantFrom("a", "b", "B", "utm_", "x", "=", "%41", "é", "~"), { maxLength: 3 });
const pair = fc.oneof(
  piece.map((p) => p.join("")),
  fc.tuple(piece, piece).map(([n, v]) => `${n.join("")}=${v.join("")}`),
);
// Short queries, and ones around the bound of kept pairs.
const query = fc
  .oneof(
    fc.array(pair, { maxLength: 6 }),
    fc.array(pair, { minLength: MAX_SORTED_PAIRS - 2, maxLength: MAX_SORTED_PAIRS + 8 }),
  )
  .map((pairs) => pairs.join("&"));

describe("sortedQuery: a short query split, filtered, sorted and joined on its text", () => {
  it("gives the generic pass's query and removed names, or leaves a long one to it", () => {
    const reached = { sorted: 0, reordered: 0, removed: 0, emptySegment: 0, tooMany: 0 };
    fc.assert(
      fc.property(query, fc.boolean(), (q, tracking) => {
        const patterns = tracking ? ["utm_*", "x"] : undefined;
        const href = `https://a.test/p?${q}`;
        const from = href.indexOf("?") + 1;
        const stripped: string[] = [];
        const matcher = patterns === undefined ? undefined : createTrackingMatcher(patterns, []);
        const got = sortedQuery(href, from, href.length, matcher, stripped);
        const want = generic(q, patterns);
        if (got === undefined) {
          // Only past its bound: more kept pairs than it sorts.
          const kept = want.query === "" ? 0 : splitQuery(want.query).length;
          assert.ok(kept > MAX_SORTED_PAIRS, `refused ${JSON.stringify(q)} with ${kept} kept pairs`);
          reached.tooMany++;
          return;
        }
        assert.equal(got, want.query, JSON.stringify(q));
        assert.deepEqual(stripped, want.removed, JSON.stringify(q));
        reached.sorted++;
        if (want.removed.length > 0) reached.removed++;
        if (q.includes("&&") || q.startsWith("&") || q.endsWith("&")) reached.emptySegment++;
        if (
          got !==
          splitQuery(q)
            .filter((p) => !want.removed.includes(p.name))
            .map((p) => (p.value === null ? p.name : `${p.name}=${p.value}`))
            .join("&")
        )
          reached.reordered++;
      }),
      { seed: 20261206, numRuns: fuzzRuns(3000) },
    );
    for (const [branch, count] of Object.entries(reached)) assert.ok(count > 30, `${branch}: only ${count}`);
  });

  it("leaves a query over its length bound to the generic pass, however few its pairs", () => {
    const long = `b=${"x".repeat(MAX_SORTED_QUERY)}&a=1`;
    const href = `https://a.test/?${long}`;
    assert.equal(sortedQuery(href, 16, href.length, undefined, undefined), undefined);
    const short = `b=${"x".repeat(MAX_SORTED_QUERY - 10)}&a=1`;
    const fits = `https://a.test/?${short}`;
    assert.equal(
      sortedQuery(fits, 16, fits.length, undefined, undefined),
      `a=1&b=${"x".repeat(MAX_SORTED_QUERY - 10)}`,
    );
  });

  it("sorts at most its bound of kept pairs; removed pairs do not count", () => {
    const names = Array.from(
      { length: MAX_SORTED_PAIRS + 1 },
      (_, i) => `n${String(MAX_SORTED_PAIRS - i).padStart(2, "0")}`,
    );
    const over = `https://a.test/?${names.join("&")}`;
    assert.equal(sortedQuery(over, 16, over.length, undefined, undefined), undefined);
    const matcher = createTrackingMatcher(["n00"], []);
    const stripped: string[] = [];
    assert.equal(sortedQuery(over, 16, over.length, matcher, stripped), [...names].sort().slice(1).join("&"));
    assert.deepEqual(stripped, ["n00"]);
  });
});
