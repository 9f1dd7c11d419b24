import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { explain, normalize } from "../../src/pipeline/normalize.js";
import { createDefaultRules, defaultRules } from "../../src/rules/default-rules.js";
import type { DomainRule } from "../../src/rules/domain-rule.js";
import { fromRoot } from "../helpers/paths.js";

// Golden rows: tests/fixtures/rules/<rule name>.yaml, each row the full identity-pipeline output.
// `rule` (optional, may be null) is the expected ruleApplied when it is not the file's rule: an
// unwrapped target shaped by another rule, or a wrapper left alone.
interface Row {
  input: string;
  expected: string;
  rule?: string | null;
}

const dir = fromRoot("tests", "fixtures", "rules");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

// Rule sets other than the defaults, by fixture file.
const rulesFor: Record<string, readonly DomainRule[]> = {
  "amazon-com-v3": createDefaultRules({ amazonHost: "com" }),
};

// Each skip names the row and why it cannot pass yet; a skip whose row is gone fails the guard.
const skips: Record<string, string> = {};

function rowsOf(file: string): Row[] {
  const value: unknown = parse(readFileSync(`${dir}/${file}`, "utf8"));
  assert.ok(Array.isArray(value), `${file} is a list of rows`);
  for (const [i, row] of value.entries()) {
    assert.equal(typeof row?.input, "string", `${file}[${i}].input`);
    assert.equal(typeof row?.expected, "string", `${file}[${i}].expected`);
  }
  return value as Row[];
}

describe("golden fixtures of the built-in rules", () => {
  const seen = new Set<string>();
  let read = 0;
  let total = 0;

  for (const file of files) {
    const name = file.slice(0, -".yaml".length);
    const rows = rowsOf(file);
    total += rows.length;
    const rules = rulesFor[name] ?? defaultRules;
    describe(name, () => {
      it("has at least 10 rows", () => assert.ok(rows.length >= 10, `${rows.length} rows`));
      for (const row of rows) {
        const skip = skips[`${name} ${row.input}`];
        it(row.input, skip === undefined ? {} : { skip }, () => {
          read++;
          seen.add(name);
          const result = explain(row.input, { rules: [...rules] });
          assert.equal(result.canonical, row.expected);
          assert.equal(result.ruleApplied, row.rule === undefined ? name : row.rule, "ruleApplied");
          // Idempotence: the canonical form is a fixed point of the same pipeline.
          assert.equal(normalize(row.expected, { rules: [...rules] }), row.expected, "normalize(expected)");
        });
      }
    });
  }

  it("every built-in rule has a fixture file, every row was read, every skip exists", () => {
    for (const rule of defaultRules)
      assert.ok(files.includes(`${rule.name}.yaml`), `no fixture for ${rule.name}`);
    const skipped = Object.keys(skips).length;
    assert.equal(read + skipped, total, "rows read");
    for (const key of Object.keys(skips)) {
      const [name, input] = [key.slice(0, key.indexOf(" ")), key.slice(key.indexOf(" ") + 1)];
      assert.ok(
        rowsOf(`${name}.yaml`).some((r) => r.input === input),
        `skip for a row that does not exist: ${key}`,
      );
    }
    assert.ok(seen.size >= defaultRules.length);
  });
});
