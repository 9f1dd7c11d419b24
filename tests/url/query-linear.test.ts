import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalFromText } from "../../src/pipeline/canonical-fast-path.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";
import { splitQuery } from "../../src/url/query-params.js";

// The characters String#indexOf passes over while `run` runs: a count of the work, not a time, so
// the bound holds on any machine. Each pair of a query once searched for "=" from its own start to
// the end of the query when it had none: "a&a&a&…" made the split quadratic (~64 ms for one 64 KiB
// link, against well under 1 for a linear one).
function scannedBy(run: () => unknown): number {
  const original = String.prototype.indexOf;
  let scanned = 0;
  String.prototype.indexOf = function (this: string, search: string, from?: number): number {
    const at = original.call(this, search, from);
    const start = Math.max(0, from ?? 0);
    scanned += (at === -1 ? this.length : at) - start;
    return at;
  };
  try {
    run();
  } finally {
    String.prototype.indexOf = original;
  }
  return scanned;
}

const hostileQuery = "a&".repeat(20_000);

describe("query splitting is linear in the query", () => {
  it("splitQuery on 20,000 pairs without '='", () => {
    let pairs = 0;
    const scanned = scannedBy(() => {
      pairs = splitQuery(hostileQuery).length;
    });
    assert.equal(pairs, 20_000);
    assert.ok(scanned <= 4 * hostileQuery.length, `${scanned} characters scanned for ${hostileQuery.length}`);
  });

  it("the fast path's in-place pass on the same query", () => {
    const options = resolveNormalizeOptions(undefined);
    const lookup = ruleLookup(options.rules);
    const link = `https://a.test/x?${hostileQuery}`;
    let key: string | undefined;
    const scanned = scannedBy(() => {
      key = canonicalFromText(link, options, lookup, undefined);
    });
    // The pairs are equal and in order, but the trailing "&" leaves an empty segment: the sort
    // path (splitQuery) settles it, so both passes are counted here.
    assert.equal(key, `https://a.test/x?${"a&".repeat(19_999)}a`);
    assert.ok(scanned <= 8 * link.length, `${scanned} characters scanned for ${link.length}`);
  });
});
