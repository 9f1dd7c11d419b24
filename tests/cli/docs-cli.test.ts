import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp-dir.js";

// Every `$ command` line of a ```sh block in docs/cli.md runs through sh with `canonurl` on the
// PATH being the built binary; the lines after it, up to the next `$ ` line or the block's end, are
// its expected stdout. Commands of one block share a scratch directory, in order, so an example
// may write a file that the next one reads.
interface Example {
  block: number;
  command: string;
  expected: string;
}

function examplesOf(doc: string): Example[] {
  const examples: Example[] = [];
  let block = 0;
  for (const match of doc.matchAll(/```sh\n([\s\S]*?)```/g)) {
    block++;
    const lines = (match[1] ?? "").replace(/\n$/, "").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      assert.ok(line.startsWith("$ "), `sh block ${block}: output line without a command: ${line}`);
      const out: string[] = [];
      while (i + 1 < lines.length && !(lines[i + 1] ?? "").startsWith("$ ")) out.push(lines[++i] ?? "");
      examples.push({
        block,
        command: line.slice(2),
        expected: out.length === 0 ? "" : `${out.join("\n")}\n`,
      });
    }
  }
  return examples;
}

describe("docs/cli.md: every sh example prints what the page shows", () => {
  const examples = examplesOf(readFileSync(fromRoot("docs", "cli.md"), "utf8"));
  const bin = tempDir("canonurl-docs-bin-");
  const wrapper = join(bin, "canonurl");
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec "${process.execPath}" "${fromRoot("dist", "cli", "bin.js")}" "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  const scratch = new Map<number, string>();

  it("has examples of every command", () => {
    for (const needle of [
      "canonurl --offline",
      "canonurl classify",
      "canonurl explain",
      "--workers",
      "| head",
    ])
      assert.ok(
        examples.some((e) => e.command.includes(needle)),
        `no checked example uses ${needle}`,
      );
  });

  for (const ex of examples) {
    it(ex.command, () => {
      let cwd = scratch.get(ex.block);
      if (cwd === undefined) {
        cwd = tempDir("canonurl-docs-");
        scratch.set(ex.block, cwd);
      }
      let stdout: string;
      try {
        stdout = execFileSync("sh", ["-c", ex.command], {
          cwd,
          encoding: "utf8",
          env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
          stdio: ["ignore", "pipe", "pipe"],
        });
      } catch (error) {
        // A documented failure (exit 1) still prints its stdout; that is what the page shows.
        const e = error as { status?: number; stdout?: string; stderr?: string };
        assert.equal(e.status, 1, `${ex.command}: exit ${e.status}: ${e.stderr}`);
        stdout = e.stdout ?? "";
      }
      assert.equal(stdout, ex.expected);
    });
  }
});
