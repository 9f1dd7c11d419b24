import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { MAX_LINE_BYTES } from "../../src/cli/io/line-splitter.js";
import { fromRoot } from "../helpers/paths.js";
import { type CliRun, runCli, testEnv } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { seeded } from "../helpers/seeded.js";
import { tempDir } from "../helpers/temp-dir.js";

// A seeded mixed input: successes, failures of each kind, blank lines, lone CRs inside lines,
// CRLF endings, long lines under the limit and a few over it, rule hosts, and no final newline.
function mixedInput(lines: number, seed = 0x5eed): { text: string; kinds: Map<string, number> } {
  const next = seeded(seed);
  const kinds = new Map<string, number>();
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    const r = next();
    let kind: string;
    let line: string;
    if (r < 0.55) {
      kind = "url";
      line = `HTTP://Host${i % 911}.test/a/./b/../c/?utm_source=x&k=${i}&b=${i % 7}#f`;
    } else if (r < 0.62) {
      kind = "rule";
      line = `https://youtu.be/dQw4w9WgX${String(i % 100).padStart(2, "0")}?si=${i}`;
    } else if (r < 0.7) {
      kind = "unsupported";
      line = `ftp://f${i}.test/`;
    } else if (r < 0.76) {
      kind = "invalid";
      line = `http://[bad${i}/`;
    } else if (r < 0.83) {
      kind = "blank";
      line = r < 0.8 ? "" : " \t ";
    } else if (r < 0.9) {
      kind = "lone-cr";
      line = `http://cr${i}.test/x\ry\r/z`;
    } else if (r < 0.92) {
      kind = "long";
      line = `http://long${i}.test/${"p".repeat(2000 + (i % 3000))}?q=${i}`;
    } else if (r < 0.95) {
      kind = "unicode";
      line = `https://Bücher${i % 13}.test/ß/😀/${"é".repeat(i % 5)}?q=日本&utm_medium=z`;
    } else if (r < 0.9997) {
      kind = "url";
      line = `example.com/${i}/?b=2&a=1`;
    } else {
      kind = "over-long";
      line = `http://huge${i}.test/${"h".repeat(MAX_LINE_BYTES)}`;
    }
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    parts.push(next() < 0.3 ? `${line}\r\n` : `${line}\n`);
  }
  return { text: parts.join("").replace(/\r?\n$/, ""), kinds };
}

// Runs the binary with stdin the open file `fd` (as `canonurl < file` does).
function runFileCli(args: readonly string[], fd: number): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fromRoot("dist/cli/bin.js"), ...args], {
      env: testEnv,
      stdio: [fd, "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("--workers N prints the same bytes as --workers 1", () => {
  const { text, kinds } = mixedInput(50_000);
  // The reference run (`--offline --workers 1` over the input on a pipe), run once for the file:
  // the plain comparison and the file-stdin comparison both measure against it (it was run twice,
  // ~1.5 CPU-s each time, for the same bytes).
  let reference: Promise<CliRun> | undefined;
  const referenceRun = (): Promise<CliRun> => {
    reference ??= runCli(["--offline", "--workers", "1"], text);
    return reference;
  };

  it("the generated input reaches every kind of line", () => {
    for (const kind of [
      "url",
      "rule",
      "unsupported",
      "invalid",
      "blank",
      "lone-cr",
      "long",
      "unicode",
      "over-long",
    ]) {
      assert.ok((kinds.get(kind) ?? 0) >= 10, `${kind}: ${kinds.get(kind)}`);
    }
  });

  for (const json of [false, true]) {
    it(`stdout, stderr and exit status are identical without --workers and for 1, 2 and 3${json ? " (--json)" : ""}`, async () => {
      const flags = json ? ["--offline", "--json"] : ["--offline"];
      const one = json ? await runCli([...flags, "--workers", "1"], text) : await referenceRun();
      assert.equal(one.code, 1);
      const out = one.stdout.split("\n");
      assert.equal(out.length, 50_001, "one output line per input line");
      if (!json) {
        const failures = one.stderr.trimEnd().split("\n").length;
        const expected =
          (kinds.get("unsupported") ?? 0) + (kinds.get("invalid") ?? 0) + (kinds.get("over-long") ?? 0);
        assert.equal(failures, expected);
      }
      for (const n of ["none", "2", "3"]) {
        const many = await runCli(n === "none" ? flags : [...flags, "--workers", n], text);
        assert.equal(many.code, one.code, `--workers ${n}`);
        assert.ok(many.stdout === one.stdout, `stdout differs with --workers ${n}`);
        assert.ok(many.stderr === one.stderr, `stderr differs with --workers ${n}`);
      }
    });
  }

  it("the same when stdin is a file (read directly, not through a stream)", async () => {
    const file = join(tempDir("canonurl-workers-"), "input.txt");
    writeFileSync(file, text);
    const fromPipe = await referenceRun();
    for (const n of ["1", "2"]) {
      const fd = openSync(file, "r");
      try {
        const fromFile = await runFileCli(["--offline", "--workers", n], fd);
        assert.equal(fromFile.code, fromPipe.code);
        assert.ok(fromFile.stdout === fromPipe.stdout, `stdout differs with --workers ${n}`);
        assert.ok(fromFile.stderr === fromPipe.stderr, `stderr differs with --workers ${n}`);
      } finally {
        closeSync(fd);
      }
    }
  });

  it("the same with URL arguments instead of stdin", async () => {
    const args = ["HTTP://A.test/x/", "ftp://b", "", "http://c.test/?gclid=1"];
    const one = await runMain(["--offline", ...args]);
    const two = await runCli(["--offline", "--workers", "2", ...args]);
    assert.deepEqual(two, one);
    assert.equal(one.stdout, "http://a.test/x\n\n\nhttp://c.test/\n");
  });

  it("honours the normalize flags in every worker (rules file included)", async () => {
    const flags = [
      "--offline",
      "--preset",
      "rfc3986",
      "--sort",
      "--keep-param",
      "ref",
      "--default-scheme",
      "https",
    ];
    const input = "example.com/p/?b=1&a=2&ref=x\nHTTP://A.test/?z=1&y=2\n";
    const one = await runMain([...flags, "--workers", "1"], input);
    const two = await runCli([...flags, "--workers", "2"], input);
    assert.equal(one.stdout, "https://example.com/p/?a=2&b=1&ref=x\nhttp://a.test/?y=2&z=1\n");
    assert.deepEqual(two, one);
  });
});

describe("--workers: usage and bounds", () => {
  it("rejects 0, negatives, non-numbers, more than 64, and network mode, with status 2", async () => {
    for (const args of [
      ["--offline", "--workers", "0"],
      ["--offline", "--workers", "-1"],
      ["--offline", "--workers", "two"],
      ["--offline", "--workers", "1.5"],
      ["--offline", "--workers", "65"],
      ["--offline", "--workers", ""],
      ["--workers", "2"],
    ]) {
      // Arguments only: the first spawns the built binary (which starts no worker for a 0), the
      // others run main() in-process.
      const r = await (args[2] === "0" ? runCli : runMain)([...args, "http://a.test/"]);
      assert.equal(r.code, 2, args.join(" "));
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /--workers/);
    }
    assert.equal((await runCli(["--offline", "--workers", "64", "http://a.test/"])).code, 0);
  });

  it("a run that never uses the workers started for it ends at once (usage error, --help)", async () => {
    // bin.js starts the workers before it parses the flags; unused, they must not keep it alive.
    const bad = await runCli(["--offline", "--workers", "3", "--no-such-flag"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no-such-flag/);
    const help = await runCli(["--offline", "--workers", "3", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--workers N/);
  });

  for (const workers of ["1", "2"]) {
    it(`--workers ${workers}: a reader that stops reading stalls the intake (bounded memory)`, async () => {
      const child = spawn(
        process.execPath,
        [fromRoot("dist/cli/bin.js"), "--offline", "--workers", workers],
        {
          stdio: ["pipe", "pipe", "ignore"],
        },
      );
      // Nobody reads child.stdout: once the pipe is full, canonurl must stop taking input.
      child.stdout.pause();
      child.stdin.on("error", () => {});
      const chunk = Buffer.from("http://a.test/some/path/?utm_source=x&k=1\n".repeat(1600)); // ~67 KiB
      const budget = 256 * 1024 * 1024;
      let written = 0;
      while (written < budget) {
        written += chunk.length;
        if (child.stdin.write(chunk)) continue;
        const drained = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 2_000);
          child.stdin.once("drain", () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        if (!drained) break;
      }
      child.kill();
      await new Promise((resolve) => child.on("close", resolve));
      // Pipes, one stdin read, the in-flight batches and the stdout buffer: a few MiB at most.
      assert.ok(written < 32 * 1024 * 1024, `took ${written} bytes without its output being read`);
    });
  }
});
