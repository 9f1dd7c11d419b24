import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { normalize } from "../../src/index.js";
import { checkAgainstLedger, type RowResult } from "../helpers/conformance-ledger.js";
import { fromRoot } from "../helpers/paths.js";

// urlcanon's semantic_precise canonicalizer is closest to canonurl's generic pass with parameter
// sorting on and nothing site-specific: tracking stripping, trailing-slash stripping and domain
// rules are off, the fragment is kept (semantic_precise keeps it).
const OPTIONS = { preset: "identity", stripTracking: false, trailingSlash: "keep", rules: false, stripFragment: false } as const;

// Each category is explained in tests/conformance/README.md.
const CATEGORIES = new Set([
  "scheme",
  "bytes",
  "reserved-decode",
  "repeated-unescape",
  "empty-segments",
  "empty-query-fragment",
  "whatwg-host",
]);

// Raised, never lowered: the count this suite last reached.
const MIN_AGREE = 114;

describe("conformance: urlcanon semantic_precise.json", () => {
  it("agrees on every row except the explained divergences", () => {
    const rows = JSON.parse(readFileSync(fromRoot("tests/conformance/urlcanon/semantic_precise.json"), "utf8")) as Record<string, string>;
    const results: RowResult[] = Object.entries(rows).map(([key, expected]) => {
      // The file's strings are bytes (Latin-1); canonurl reads text, so the bytes are read as UTF-8.
      const input = new TextDecoder().decode(Buffer.from(key, "latin1"));
      let got: string;
      try {
        got = normalize(input, OPTIONS);
      } catch (error) {
        got = `error ${(error as { code?: string }).code}`;
      }
      return { key, agrees: got === expected, expected, got };
    });
    assert.equal(results.length, 280, "every row of the fixture is read");
    const agree = checkAgainstLedger(results, fromRoot("tests/conformance/urlcanon/semantic_precise.divergences.json"), CATEGORIES, MIN_AGREE);
    console.log(`urlcanon semantic_precise: ${agree}/${results.length} rows agree`);
  });
});
