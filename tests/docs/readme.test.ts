import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";
import { runCli } from "../helpers/run-cli.js";

interface Example {
  command: string;
  args: string[];
  stdin: string | undefined;
  expected: string;
}

// Shell words as the README writes them: bare words and '…' single-quoted strings.
function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? "");
  return words;
}

/** Every `$ npx canonurl …` (optionally `$ printf '…' | npx canonurl …`) line of the README's sh blocks, with the output below it. */
function readmeExamples(): Example[] {
  const text = readFileSync(fromRoot("README.md"), "utf8");
  const examples: Example[] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = (block[1] ?? "").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const command = lines[i] ?? "";
      const m = /^\$ (?:printf '([^']*)' \| )?npx canonurl (.*)$/.exec(command);
      if (m === null) continue;
      const out: string[] = [];
      while (i + 1 < lines.length && !(lines[i + 1] ?? "").startsWith("$ ")) out.push(lines[++i] ?? "");
      // The block's own closing newline; a printf example's blank output line (a failed input) stays.
      if (out[out.length - 1] === "") out.pop();
      examples.push({
        command,
        args: shellWords(m[2] ?? ""),
        stdin: m[1]?.replace(/\\n/g, "\n"),
        expected: `${out.join("\n")}\n`,
      });
    }
  }
  return examples;
}

describe("README examples", () => {
  const examples = readmeExamples();
  it("the README has CLI examples to check", () => {
    assert.ok(examples.length >= 8, `found ${examples.length}`);
  });
  for (const ex of examples) {
    it(ex.command, async () => {
      const r = await runCli(ex.args, ex.stdin);
      assert.equal(r.stdout, ex.expected);
    });
  }
});
