// docs/cache.md's runnable examples run as a user would run them: each ```js block is written to a
// file inside the package (so `import … from "canonurl"` resolves to the built package) and run
// with node; its output must be the ```text block after "It prints:".
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

function examples(): { code: string; prints: string }[] {
  const text = readFileSync(fromRoot("docs", "cache.md"), "utf8");
  const out: { code: string; prints: string }[] = [];
  for (const m of text.matchAll(/```js\n([\s\S]*?)```\s*\nIt prints:\s*\n```text\n([\s\S]*?)```/g)) {
    out.push({ code: m[1] ?? "", prints: m[2] ?? "" });
  }
  return out;
}

describe("docs/cache.md examples", () => {
  const found = examples();
  it("the page has runnable examples", () => {
    assert.ok(found.length >= 1, `found ${found.length}`);
  });
  for (const [i, ex] of found.entries()) {
    it(`example ${i + 1} prints what the page says`, () => {
      const dir = fromRoot("build", "doc-examples");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `cache-${i}.mjs`);
      writeFileSync(file, ex.code);
      try {
        const stdout = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 30_000 });
        assert.equal(stdout, ex.prints);
      } finally {
        rmSync(file, { force: true });
      }
    });
  }
});
