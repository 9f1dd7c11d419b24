import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { classify } from "../../src/classify/index.js";
import { fromRoot } from "../helpers/paths.js";
import type { FixtureRow } from "./fixture-row.js";
import { expectedForm, loadUrlformRows } from "./load-fixtures.js";
import { ownRows } from "./own-rows.js";

// The seed's facts only: scriptScheme is canonurl's own (tests/classify/script-scheme.test.ts).
function factsOf(input: string) {
  const { trimmed: _trimmed, scriptScheme: _scriptScheme, ...facts } = classify(input);
  return facts;
}

function browserReading(input: string): string {
  try {
    return new URL(input).hostname;
  } catch {
    return "FAIL";
  }
}

function runRows(rows: readonly FixtureRow[], seen: Set<string>): void {
  for (const row of rows) {
    it(row.name, () => {
      seen.add(row.name);
      assert.deepEqual(factsOf(row.input), expectedForm(row), JSON.stringify(row.input));
      if (row.browser !== undefined) {
        assert.equal(browserReading(row.input), row.browser, "the documented browser reading is wrong");
      }
    });
  }
}

describe("urlform conformance fixtures (vendored, every fact compared)", () => {
  const rows = loadUrlformRows();
  const seen = new Set<string>();
  runRows(rows, seen);
  it("read every row of the corpus", () => {
    assert.equal(rows.length, 29, "the vendored corpus has 29 rows (SOURCE.md)");
    assert.equal(seen.size, rows.length);
  });
});

describe("canonurl's own rows (classes, facts and divergences the corpus lacks)", () => {
  const seen = new Set<string>();
  runRows(ownRows, seen);
  it("read every own row, and cover every class", () => {
    assert.equal(seen.size, ownRows.length, "row names must be unique and all run");
    const classes = new Set(ownRows.map((row) => expectedForm(row).class));
    assert.equal(classes.size, 7);
  });
});

describe("docs/classify.md", () => {
  it("tables every divergence row", () => {
    // The formatter pads table cells, so compare with runs of spaces collapsed.
    const doc = readFileSync(fromRoot("docs", "classify.md"), "utf8").replace(/ +/g, " ");
    const rows = ownRows.filter((row) => row.divergence === true);
    assert.ok(rows.length > 10);
    for (const row of rows)
      assert.ok(doc.includes(`| ${row.name} |`), `docs/classify.md lacks "${row.name}"`);
  });
});
