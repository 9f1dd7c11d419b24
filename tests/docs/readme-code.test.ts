import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { transform } from "esbuild";
import { fromRoot } from "../helpers/paths.js";

// The README's code blocks are what a dependent copies first, so each one runs as written: every
// ```ts / ```js block is a module importing "canonurl" (which resolves to this package by its own
// name, as the files sit inside the repository), and every `EXPR; // → VALUE` line asserts that
// EXPR deep-equals VALUE. A block that cannot run here (the network) says so, with its reason, in
// a `<!-- docs-test: not run (reason) -->` line right above it.

interface Block {
  line: number;
  lang: string;
  code: string;
  skipReason: string | undefined;
}

function readmeBlocks(): Block[] {
  const lines = readFileSync(fromRoot("README.md"), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|js)$/.exec(lines[i] ?? "");
    if (open === null) continue;
    const skip = /^<!-- docs-test: not run \((.+)\) -->$/.exec(lines[i - 1] ?? "");
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    blocks.push({
      line: start + 1,
      lang: open[1] ?? "",
      code: lines.slice(start, end).join("\n"),
      skipReason: skip?.[1],
    });
    i = end;
  }
  return blocks;
}

const ARROW = /^(.*?);?\s*\/\/ → (.+)$/;

/** The block with each `EXPR; // → VALUE` line turned into a check; the count of checks. */
function withChecks(block: Block, commonjs = false): { code: string; checks: number } {
  let checks = 0;
  // An ES module block may await inside EXPR; a CommonJS one has no top-level await.
  const call = commonjs ? "globalThis.__readmeExpect(() =>" : "await globalThis.__readmeExpect(async () =>";
  const code = block.code
    .split("\n")
    .map((text, k) => {
      const m = ARROW.exec(text);
      if (m === null) return text;
      checks++;
      return `${call} (${m[1]}), (${m[2]}), ${block.line + k});`;
    })
    .join("\n");
  return { code, checks };
}

const dir = fromRoot("build", `readme-examples-${process.pid}`);

describe("README code blocks", () => {
  const blocks = readmeBlocks();
  let checked = 0;
  (globalThis as Record<string, unknown>).__readmeExpect = (
    actual: () => unknown,
    expected: unknown,
    line: number,
  ): void | Promise<void> => {
    checked++;
    const value = actual();
    if (value instanceof Promise)
      return value.then((v) => assert.deepEqual(v, expected, `README.md line ${line}`));
    assert.deepEqual(value, expected, `README.md line ${line}`);
  };
  mkdirSync(dir, { recursive: true });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("the README has code blocks to run, and every skipped one says why", () => {
    const run = blocks.filter((b) => b.skipReason === undefined);
    assert.ok(run.length >= 12, `only ${run.length} blocks run`);
    assert.ok(blocks.length - run.length <= 2, "more than two blocks skipped");
    const total = run.reduce((n, b) => n + withChecks(b).checks, 0);
    assert.ok(total >= 30, `only ${total} // → checks`);
  });

  for (const block of blocks) {
    const name = `README.md line ${block.line} (${block.lang})`;
    if (block.skipReason !== undefined) {
      it(name, { skip: block.skipReason }, () => {});
      continue;
    }
    it(name, async () => {
      // `require` makes it a CommonJS example; everything else is an ES module (TypeScript
      // syntax stripped by esbuild, as a user's toolchain would).
      const commonjs = /\brequire\(/.test(block.code);
      const { code, checks } = withChecks(block, commonjs);
      const { code: js } = await transform(code, { loader: "ts", format: commonjs ? "cjs" : "esm" });
      const file = join(dir, `line-${block.line}.${commonjs ? "cjs" : "mjs"}`);
      writeFileSync(file, js);
      const before = checked;
      await import(pathToFileURL(file).href);
      assert.equal(checked - before, checks, "every // → line was checked");
    });
  }
});
