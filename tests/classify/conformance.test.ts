import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classify } from "../../src/classify/index.js";
import type { FixtureRow } from "./fixture-row.js";
import { expectedForm, loadUrlformRows } from "./load-fixtures.js";
import { ownRows } from "./own-rows.js";

function factsOf(input: string) {
  const { trimmed: _trimmed, ...facts } = classify(input);
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
