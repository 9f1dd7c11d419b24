// docs/recipes.md runs as a reader would run it. The dedupe recipe's links.txt goes through the
// built binary and must print the page's unique.txt and groups; each ```js block is written into
// the package (so `import … from "canonurl"` resolves to the build) and run with node inside a
// loopback-only network namespace (its unfurl example asks the resolver for a metadata address,
// which must be refused before any connection; if it were not, there is nothing to reach), and
// must print the ```text block after "It prints:".
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";
import { runCli } from "../helpers/run-cli.js";

const page = readFileSync(fromRoot("docs", "recipes.md"), "utf8");

function textAfter(marker: string): string {
  const at = page.indexOf(marker);
  assert.ok(at !== -1, `recipes.md has "${marker}"`);
  const m = /```text\n([\s\S]*?)```/.exec(page.slice(at));
  assert.ok(m !== null, `a text block after "${marker}"`);
  return m[1] ?? "";
}

describe("docs/recipes.md", () => {
  it("dedupe a file: --unique and --groups print what the page shows", async () => {
    const links = textAfter("With this `links.txt`:");
    const unique = await runCli(["--offline", "--unique"], links);
    assert.equal(unique.code, 0, unique.stderr);
    assert.equal(unique.stdout, textAfter("`unique.txt` holds:"));
    const groups = await runCli(["--offline", "--groups"], links);
    assert.equal(groups.code, 0, groups.stderr);
    assert.equal(groups.stdout, textAfter("canonurl --offline --groups < links.txt"));
  });

  const examples = [...page.matchAll(/```js\n([\s\S]*?)```\s*\nIt prints:\s*\n```text\n([\s\S]*?)```/g)];
  it("has its runnable examples", () => assert.ok(examples.length >= 2, `found ${examples.length}`));
  for (const [i, m] of examples.entries()) {
    it(`example ${i + 1} prints what the page says (loopback-only namespace)`, () => {
      const dir = fromRoot("build", "doc-examples");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `recipes-${i}.mjs`);
      writeFileSync(file, m[1] ?? "");
      try {
        const stdout = execFileSync(
          "unshare",
          ["-rn", "sh", "-c", 'ip link set lo up && exec "$0" "$1"', process.execPath, file],
          { encoding: "utf8", timeout: 30_000 },
        );
        assert.equal(stdout, m[2]);
      } finally {
        rmSync(file, { force: true });
      }
    });
  }
});
