import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { alphaReorderQuery } from "../../src/archive/alpha-reorder-query.js";
import { parseArchiveUrl } from "../../src/archive/archive-url.js";
import { formatArchiveUri } from "../../src/archive/format-archive-url.js";
import { googleCanonicalize } from "../../src/archive/google-canonicalize.js";
import { iaCanonicalize } from "../../src/archive/ia-canonicalize.js";
import { massageHost } from "../../src/archive/massage-host.js";
import { unescapeRepeatedly } from "../../src/archive/percent-bytes.js";
import { reverseHost, ssurtHost } from "../../src/archive/reverse-host.js";
import { ssurt, urlcanonSurt } from "../../src/archive/ssurt.js";
import { stripPathSessionId } from "../../src/archive/strip-session-ids.js";
import { surt } from "../../src/index.js";
import { checkAgainstLedger, type RowResult } from "../helpers/conformance-ledger.js";
import { fromRoot } from "../helpers/paths.js";

// The fixture's strings are bytes (Latin-1). Bytes that are UTF-8 are read as the text they
// encode; the few that are not ("B\xfccher.ch", from the surt package's unicode tests, and
// "\x01\x80.com") are kept as code points, which is what those upstream tests fed in.
function text(latin1: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(latin1, "latin1"));
  } catch {
    return latin1;
  }
}

// The Archive's canonicalizers (Google's half, the IA half, or both: the default) as URLs (before the SURT step), on the Archive's own reading of the
// input (preset "none"); a URL without a host comes back as it is, as surt() returns it.
function archiveUri(input: string, steps: "google" | "ia" | "default-ia"): string {
  const parts = parseArchiveUrl(input);
  if (parts === undefined) return "error invalid-url";
  if (parts.host === null) return input;
  if (steps !== "ia") googleCanonicalize(parts);
  if (steps !== "google") iaCanonicalize(parts, false);
  return formatArchiveUri(parts);
}

// Each section of the two fixtures, and the canonurl function its rows run through.
const SECTIONS: Record<string, Record<string, (input: string) => string>> = {
  "surt.json": {
    defaultIASurt: (input) => surt(input),
    "Canonicalizer.DefaultIA": (input) => archiveUri(input, "default-ia"),
    "Canonicalizer.IA": (input) => archiveUri(input, "ia"),
    google: (input) => archiveUri(input, "google"),
    googleSupplementalFromSurt: (input) => archiveUri(input, "google"),
    unescapeRepeatedly: (input) => Buffer.from(unescapeRepeatedly(Buffer.from(input, "latin1"))).toString("latin1"),
    alphaRorderQuery: alphaReorderQuery,
    massageHost,
    stripPathSessionId,
  },
  "ssurt.json": {
    ssurtHost,
    reverseHost,
    ssurt,
    surt: (input) => urlcanonSurt(input, { withScheme: true, trailingComma: true }),
    surtWithoutScheme: (input) => urlcanonSurt(input, { withScheme: false, trailingComma: true }),
    surtWithoutTrailingComma: (input) => urlcanonSurt(input, { withScheme: true, trailingComma: false }),
  },
};

// Each category is explained in tests/conformance/README.md.
const CATEGORIES = new Set(["bytes"]);

// Raised, never lowered: the count this suite last reached.
const MIN_AGREE = 131;

describe("conformance: urlcanon surt.json and ssurt.json", () => {
  it("agrees on every row except the explained divergences", () => {
    const results: RowResult[] = [];
    for (const [file, sections] of Object.entries(SECTIONS)) {
      const fixture = JSON.parse(readFileSync(fromRoot("tests/conformance/urlcanon", file), "utf8")) as Record<
        string,
        Record<string, string>
      >;
      assert.deepEqual(Object.keys(fixture).sort(), Object.keys(sections).sort(), `${file}: every section has a runner`);
      for (const [section, rows] of Object.entries(fixture)) {
        const run = sections[section] as (input: string) => string;
        for (const [input, expectedRaw] of Object.entries(rows)) {
          const expected = text(expectedRaw);
          let got: string;
          try {
            got = run(text(input));
          } catch (error) {
            got = `error ${(error as { code?: string }).code}`;
          }
          results.push({ key: `${file} ${section} ${input}`, agrees: got === expected, expected, got });
        }
      }
    }
    assert.equal(results.length, 95 + 37, "every row of both fixtures is read");
    const agree = checkAgainstLedger(
      results,
      fromRoot("tests/conformance/urlcanon/surt-ssurt.divergences.json"),
      CATEGORIES,
      MIN_AGREE,
    );
    console.log(`urlcanon surt.json + ssurt.json: ${agree}/${results.length} rows agree`);
  });
});
