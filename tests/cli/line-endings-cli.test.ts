import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_LINE_BYTES } from "../../src/cli/io/line-splitter.js";
import { runCli } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";

// A run whose point is its arguments and output calls main() in this process (runMain): no Node
// start per case. The first case of a table and every run whose point is the process (--workers
// threads, stdin on a pipe, network mode, large streamed inputs) spawn the built binary (runCli).

// Issue 11: readline ended a line at a lone \r, so 1,000,000 lines with 100 lone CRs printed
// 1,000,100 lines and every later output answered the wrong input. The same rule holds in every
// command that reads stdin: one output line per \n-terminated input line.
const LINES = 5_000;
function loneCrInput(): { text: string; crs: number } {
  const lines: string[] = [];
  let crs = 0;
  for (let i = 0; i < LINES; i++) {
    if (i % 50 === 7) {
      lines.push(`http://cr${i}.test/a\rb`);
      crs++;
    } else lines.push(`http://h${i}.test/p/?utm_source=${i}&k=${i}`);
  }
  // CRLF endings on some lines, and a last line without a newline.
  return {
    text: lines
      .map((l, i) => (i % 3 === 0 ? `${l}\r\n` : `${l}\n`))
      .join("")
      .slice(0, -1),
    crs,
  };
}

describe("issue 11: a lone \\r stays inside its line, in every command", () => {
  const { text, crs } = loneCrInput();

  for (const workers of ["1", "2"]) {
    it(`canonicalize --offline --workers ${workers}: one output per input line, each answering its own input`, async () => {
      assert.ok(crs >= 100);
      const r = await runCli(["--offline", "--workers", workers], text);
      assert.equal(r.code, 0, r.stderr);
      const out = r.stdout.split("\n");
      assert.equal(out.pop(), "");
      assert.equal(out.length, LINES);
      for (let i = 0; i < LINES; i++) {
        // The WHATWG parser drops the \r inside the line: "a\rb" is the path "ab".
        const want = i % 50 === 7 ? `http://cr${i}.test/ab` : `http://h${i}.test/p?k=${i}`;
        assert.equal(out[i], want, `line ${i}`);
      }
    });
  }

  it("canonicalize --offline --json: the index and input of each object match the input line", async () => {
    const r = await runMain(["--offline", "--json"], text);
    const objects = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { index: number; input: string });
    assert.equal(objects.length, LINES);
    assert.deepEqual(objects[7], { ...objects[7], index: 7, input: "http://cr7.test/a\rb" });
    assert.equal(objects[LINES - 1]?.index, LINES - 1);
  });

  it("classify: one record per input line, the lone \\r reported as tab-or-newline", async () => {
    const r = await runMain(["classify"], text);
    assert.equal(r.code, 0);
    const out = r.stdout.trimEnd().split("\n");
    assert.equal(out.length, LINES);
    assert.equal(out[7], "absolute\thttp\tcr7.test\t\ttab-or-newline\thttp://cr7.test/ab");
    assert.equal(out.filter((l) => l.includes("tab-or-newline")).length, crs);
  });

  it("network mode: one output per input line (inputs that fail before any network access)", async () => {
    // Only non-http inputs, so no line could reach a resolver however the lines were cut.
    const input = "ftp://a.test/x\rftp://b.test/\r\n\nmailto:x\ry\nftp://c.test/";
    const r = await runCli([], input);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "\n\n\n\n");
    const indices = r.stderr
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t")[0]);
    assert.deepEqual(indices, ["0", "2", "3"]);
    assert.match(r.stderr, /^0\tftp:\/\/a\.test\/x\\rftp:\/\/b\.test\/\tunsupported-scheme/m);
  });
});

describe("an over-long line is one failed input, not unbounded memory", () => {
  const long = `http://long.test/${"a".repeat(MAX_LINE_BYTES)}`;
  const input = `http://a.test/\n${long}\r\nhttp://b.test/\n${long}`;

  for (const workers of ["1", "3"]) {
    it(`offline --workers ${workers}: an empty output line, the length and limit on stderr, exit 1`, async () => {
      const r = await runCli(["--offline", "--workers", workers], input);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "http://a.test/\n\nhttp://b.test/\n\n");
      const bytes = Buffer.byteLength(long);
      const failure = `invalid-url: invalid URL: line of ${bytes} bytes is over the ${MAX_LINE_BYTES}-byte line limit`;
      assert.equal(
        r.stderr,
        `1\thttp://long.test/${"a".repeat(47)}…\t${failure}\n3\thttp://long.test/${"a".repeat(47)}…\t${failure}\n`,
      );
    });
  }

  it("offline --json: an ok:false object with the prefix as input", async () => {
    const r = await runMain(["--offline", "--json"], input);
    const second = JSON.parse(r.stdout.split("\n")[1] ?? "");
    assert.equal(second.index, 1);
    assert.equal(second.ok, false);
    assert.equal(second.error.code, "invalid-url");
    assert.equal(second.input, `http://long.test/${"a".repeat(47)}…`);
  });

  it("classify: an empty line and the failure on stderr, exit 1", async () => {
    const r = await runMain(["classify"], input);
    assert.equal(r.code, 1);
    const out = r.stdout.split("\n");
    assert.equal(out.length, 5);
    assert.equal(out[1], "");
    assert.equal(out[3], "");
    assert.match(r.stderr, /^1\thttp:\/\/long\.test\/a+…\tinvalid-url: .*line limit\n3\t/);
  });

  it("network mode: the same failure, and the line is never resolved", async () => {
    // ftp: even a wrong cut of the line could not reach a resolver.
    const r = await runCli(["--json"], `ftp://long.test/${"a".repeat(MAX_LINE_BYTES)}\n\n`);
    assert.equal(r.code, 1);
    const [first, second] = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(first.ok, false);
    assert.match(first.error.message, /line limit/);
    assert.equal(second.blank, true);
  });
});
