import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { normalize } from "../../src/index.js";
import { checkAgainstLedger, type RowResult } from "../helpers/conformance-ledger.js";
import { fromRoot } from "../helpers/paths.js";

interface WptRow {
  input: string;
  base: string | null;
  href?: string;
  protocol?: string;
  failure?: boolean;
}

// The stage WPT exercises is parsing: canonurl must read a raw string as the browser does. So a
// row agrees when normalizing the raw input gives what normalizing the browser's own serialization
// gives, when an input the browser rejects is rejected as invalid-url, and when a non-http(s) URL
// is refused as unsupported-scheme (canonurl's contract).
const OPTIONS = { preset: "rfc3986", stripFragment: false } as const;
const CATEGORIES = new Set(["default-scheme", "no-base", "node-ada"]);
const MIN_AGREE = 551;

function outcome(input: string): string {
  try {
    return normalize(input, OPTIONS);
  } catch (error) {
    return `error ${(error as { code?: string }).code}`;
  }
}

describe("conformance: WPT urltestdata.json (parse stage)", () => {
  it("reads every absolute input the way the browser does, except the explained divergences", () => {
    const data = JSON.parse(readFileSync(fromRoot("tests/conformance/wpt/urltestdata.json"), "utf8")) as (string | WptRow)[];
    const tests = data.filter((r): r is WptRow => typeof r !== "string");
    // normalize() takes absolute input only: rows that resolve against a real base are another
    // stage (the resolver's Location handling) and are counted, not run.
    const relative = tests.filter((r) => r.base !== null && r.base !== "about:blank");
    const absolute = tests.filter((r) => r.base === null || r.base === "about:blank");
    assert.equal(tests.length, 891, "every row of the fixture is read");
    assert.equal(relative.length + absolute.length, tests.length);

    const results: RowResult[] = absolute.map((r) => {
      const got = outcome(r.input);
      const expected = r.failure
        ? "error invalid-url"
        : r.protocol !== "http:" && r.protocol !== "https:"
          ? "error unsupported-scheme"
          : outcome(r.href ?? "");
      return { key: r.input, agrees: got === expected, expected, got };
    });
    // A node-ada row diverges because of the URL parser inside Node (Ada), and newer Node versions
    // fix some (Node 24 reads `file://xn--/p` as WPT does; 20 and 22 reject it). So such a row is
    // a divergence only where this Node's own URL reads it differently from WPT; elsewhere
    // canonurl must agree like on any unlisted row.
    const ledgerPath = fromRoot("tests/conformance/wpt/urltestdata.divergences.json");
    const ledger = JSON.parse(readFileSync(ledgerPath, "utf8")) as Record<string, string>;
    const nodeReadsAsWpt = (r: WptRow): boolean => {
      try {
        return r.failure !== true && new URL(r.input).href === r.href;
      } catch {
        return r.failure === true;
      }
    };
    const notOnThisNode = new Set(
      absolute.filter((r) => ledger[r.input] === "node-ada" && nodeReadsAsWpt(r)).map((r) => r.input),
    );
    const agree = checkAgainstLedger(results, ledgerPath, CATEGORIES, MIN_AGREE, notOnThisNode);
    console.log(`WPT urltestdata: ${agree}/${absolute.length} absolute rows agree; ${relative.length} relative rows are another stage`);
  });
});
