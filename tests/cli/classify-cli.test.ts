import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";
import { runMain } from "../helpers/run-main.js";

const BIN = fromRoot("dist", "cli", "bin.js");

// The built binary, for the first case: `canonurl classify` as a process.
function runBinary(args: string[], stdin = "") {
  const result = spawnSync(process.execPath, [BIN, "classify", ...args], { input: stdin, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The other cases are about arguments and output only: main() in this process (runMain), as the
// binary runs it; each spawned run cost ~0.25 CPU-s of Node start-up.
const run = (args: string[], stdin = "") => runMain(["classify", ...args], stdin);

describe("canonurl classify", () => {
  it("prints one tab-separated line per argument, in order", () => {
    const { code, stdout, stderr } = runBinary([
      "https://trusted@evil.test/",
      "https:/evil.test:8443",
      "\\\\evil.test/x",
      "foo bar@evil.test/x",
      "",
    ]);
    assert.equal(code, 0, stderr);
    assert.deepEqual(stdout.split("\n"), [
      "absolute\thttps\tevil.test\t\tuserinfo\thttps://trusted@evil.test/",
      "hidden-host\thttps\tevil.test\t8443\t\thttps:/evil.test:8443",
      "protocol-relative\t\tevil.test\t\tbackslash\t\\\\evil.test/x",
      "schemeless-host\t\t\t\thost-unrecoverable\tfoo bar@evil.test/x",
      "empty\t\t\t\t\t",
      "",
    ]);
  });

  it("reads stdin line by line when given no strings, CRLF included, blank lines kept", async () => {
    const { code, stdout } = await run([], "https://anime\tbytes.tv/x\r\n\n/relative\n");
    assert.equal(code, 0);
    assert.deepEqual(stdout.split("\n"), [
      "absolute\thttps\tanimebytes.tv\t\ttab-or-newline\thttps://animebytes.tv/x",
      "empty\t\t\t\t\t",
      "relative\t\t\t\t\t/relative",
      "",
    ]);
  });

  it("--json prints one object per input with the input and every fact", async () => {
    const { code, stdout } = await run(["--json", "ht\ttps://EVIL.test:443/", "--", "-x"]);
    assert.equal(code, 0);
    const lines = stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2);
    assert.deepEqual(JSON.parse(lines[0] ?? ""), {
      input: "ht\ttps://EVIL.test:443/",
      class: "absolute",
      trimmed: "https://EVIL.test:443/",
      host: "evil.test",
      scheme: "https",
      port: "443",
      hasBackslash: false,
      hasTabOrNewline: true,
      hasUserInfo: false,
      hostUnrecoverable: false,
      scriptScheme: false,
    });
    assert.equal(JSON.parse(lines[1] ?? "").class, "schemeless-host");
  });

  it("--help prints usage and exits 0", async () => {
    const { code, stdout } = await run(["--help"]);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: canonurl classify \[--json\]/);
  });

  it("exits 2 on an unknown option, printing nothing on stdout", async () => {
    const { code, stdout, stderr } = await run(["--bogus", "x"]);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /bogus/);
  });
});

describe("docs/classify.md command-line examples", () => {
  const doc = readFileSync(fromRoot("docs", "classify.md"), "utf8");
  const examples: { args: string[]; expected: string }[] = [];
  for (const block of doc.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = (block[1] ?? "").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const m = /^\$ canonurl classify (.*)$/.exec(lines[i] ?? "");
      if (m === null) continue;
      const out: string[] = [];
      while (i + 1 < lines.length && !(lines[i + 1] ?? "").startsWith("$ ") && lines[i + 1] !== "")
        out.push(lines[++i] ?? "");
      const args = [...(m[1] ?? "").matchAll(/'([^']*)'|(\S+)/g)].map((w) => w[1] ?? w[2] ?? "");
      examples.push({ args, expected: `${out.join("\n")}\n` });
    }
  }
  it("has an example to check", () => assert.ok(examples.length > 0));
  for (const ex of examples) {
    it(ex.args.join(" "), async () => assert.equal((await run(ex.args)).stdout, ex.expected));
  }
});
