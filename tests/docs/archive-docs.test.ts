import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import * as canonurl from "../../src/index.js";
import { fromRoot } from "../helpers/paths.js";

// Every line `EXPRESSION; // RESULT` of a ```ts block in these pages is evaluated with the
// package's exports in scope and must give RESULT (JSON: a string, number or boolean); `// throws UrlError, code "x"`
// must throw that code. Lines of other shapes (imports, declarations) are prose for the reader.
const PAGES = ["archive.md", "clearurls.md"];
const LINE = /^(.+?);\s*\/\/ (".*"|-?\d+|true|false|throws \w+, code "[\w-]+")$/;

function examplesOf(doc: string): { expr: string; want: string }[] {
  const out: { expr: string; want: string }[] = [];
  for (const block of doc.matchAll(/```ts\n([\s\S]*?)```/g))
    for (const line of (block[1] ?? "").split("\n")) {
      const m = LINE.exec(line.trim());
      if (m !== null) out.push({ expr: m[1] as string, want: m[2] as string });
    }
  return out;
}

const scope = { ...canonurl, readFileSync };
function evaluate(expr: string, locals: Record<string, unknown>): unknown {
  const names = [...Object.keys(scope), ...Object.keys(locals)];
  return new Function(...names, `return (${expr});`)(...Object.values(scope), ...Object.values(locals));
}

describe("docs: every `expression; // result` line of the archive and ClearURLs pages holds", () => {
  for (const page of PAGES) {
    const examples = examplesOf(readFileSync(fromRoot("docs", page), "utf8"));
    it(`${page} (${examples.length} examples)`, () => {
      assert.ok(examples.length >= 8, `${page}: the examples were found`);
      const rules = [...canonurl.defaultRules, ...canonurl.clearUrlsRules()];
      const data = JSON.parse(readFileSync(canonurl.clearUrlsSnapshotPath(), "utf8")) as unknown;
      const locals = { rules, data };
      for (const { expr, want } of examples) {
        if (want.startsWith("throws")) {
          const code = /code "([\w-]+)"/.exec(want)?.[1];
          assert.throws(() => evaluate(expr, locals), { code }, expr);
        } else assert.equal(JSON.stringify(evaluate(expr, locals)), want, expr);
      }
    });
  }
});
