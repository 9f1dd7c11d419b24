import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { needsStdinHint, STDIN_HINT } from "../../src/cli/io/stdin-hint.js";
import { fromRoot } from "../helpers/paths.js";
import { runCli } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { tempDir } from "../helpers/temp-dir.js";

// A run whose point is its arguments and output calls main() in this process (runMain): no Node
// start per case. The first case of a table and every run whose point is the process (--workers
// threads, stdin on a pipe, network mode, large streamed inputs) spawn the built binary (runCli).

const BIN = fromRoot("dist", "cli", "bin.js");
const dir = tempDir("canonurl-cli-");
const bigInput = join(dir, "urls.txt");
writeFileSync(
  bigInput,
  Array.from({ length: 200_000 }, (_, i) => `HTTP://Host${i}.test/a/../b/?utm_source=${i}`).join("\n"),
);
// Network mode without a network: every input fails on its scheme before any resolver is asked.
const ftpInput = join(dir, "ftp.txt");
writeFileSync(ftpInput, Array.from({ length: 100_000 }, (_, i) => `ftp://h${i}.test/`).join("\n"));

// The shell pipeline a user types: the reader (head) exits after one line and closes the pipe.
function pipeIntoHead(args: string): { status: string; stderr: string; stdout: string } {
  const script = `node ${BIN} ${args} 2>"${dir}/err" | head -n 1; echo "\${PIPESTATUS[0]}" >"${dir}/status"`;
  const r = spawnSync("bash", ["-c", script], { encoding: "utf8", timeout: 60_000 });
  return {
    stdout: r.stdout,
    status: readFileSync(join(dir, "status"), "utf8").trim(),
    stderr: readFileSync(join(dir, "err"), "utf8"),
  };
}

describe("issue 12: a closed stdout ends the run quietly with status 0", () => {
  for (const [name, args, first] of [
    ["offline", `--offline < "${bigInput}"`, "http://host0.test/b"],
    ["offline --workers 2", `--offline --workers 2 < "${bigInput}"`, "http://host0.test/b"],
    ["offline --json", `--offline --json < "${bigInput}"`, '{"index":0,'],
    ["classify", `classify < "${bigInput}"`, "absolute\thttp\thost0.test"],
    ["network mode --json (ftp only: nothing reaches a network)", `--json < "${ftpInput}"`, '{"index":0,'],
  ] as const) {
    it(`${name} | head -n 1`, () => {
      const r = pipeIntoHead(args);
      assert.ok(r.stdout.startsWith(first), r.stdout);
      assert.equal(r.stderr, "");
      assert.equal(r.status, "0");
    });
  }

  it("explain into a reader that is already gone", async () => {
    // The parent closes its end of the pipe before the child writes anything.
    const child = spawn(process.execPath, [BIN, "explain", "https://youtu.be/dQw4w9WgXcQ"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(stderr, "");
    assert.equal(code, 0);
  });

  it("a reader that stops early while input keeps coming: status 0, stdin no longer read", async () => {
    const child = spawn(process.execPath, [BIN, "--offline"], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdout.once("data", () => child.stdout.destroy());
    child.stdin.on("error", () => {}); // EPIPE once the child stops reading
    const line = "http://a.test/x/?utm_source=1\n".repeat(1000);
    let written = 0;
    const feeding = (async () => {
      while (!child.stdin.destroyed && written < 4_000) {
        written++;
        if (!child.stdin.write(line)) await new Promise((r) => child.stdin.once("drain", r).once("close", r));
      }
    })();
    const code = await new Promise((resolve) => child.on("close", resolve));
    await feeding;
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    // 4,000 writes of 1,000 lines were offered; the run ended long before taking them all.
    assert.ok(written < 4_000, `${written} writes`);
  });
});

describe("issue 12: --version, -, the terminal hint, explain --offline", () => {
  it("--version prints the version of package.json", async () => {
    const pkg = JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as { version: string };
    const r = await runCli(["--version"]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `${pkg.version}\n`);
  });

  it("'-' alone reads stdin; mixed with URLs it is a usage error", async () => {
    const r = await runCli(["--offline", "-"], "HTTP://A.test/x/\n");
    assert.equal(r.stdout, "http://a.test/x\n");
    const c = await runMain(["classify", "-"], "/rel\n");
    assert.equal(c.stdout, "relative\t\t\t\t\t/rel\n");
    for (const args of [
      ["--offline", "-", "http://a.test/"],
      ["classify", "x", "-"],
    ]) {
      const bad = await runMain(args, "http://b.test/\n");
      assert.equal(bad.code, 2, args.join(" "));
      assert.equal(bad.stdout, "");
      assert.match(bad.stderr, /'-' \(read stdin\) must be the only input argument/);
    }
  });

  it("the hint is printed only when stdin is a terminal and the command reads it", () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const pipe = new PassThrough();
    assert.equal(needsStdinHint(true, tty), true);
    assert.equal(needsStdinHint(false, tty), false);
    assert.equal(needsStdinHint(true, pipe), false);
  });

  it("under a real terminal (script -qec): the hint on the terminal, then the output, status 0", () => {
    const run = (args: string) =>
      spawnSync("script", ["-qec", `node ${BIN} ${args}`, "/dev/null"], {
        input: "HTTP://A.test/x/\n\u0004",
        encoding: "utf8",
        timeout: 30_000,
      });
    const typed = run("--offline");
    assert.equal(typed.error, undefined, "util-linux `script` is needed for this test");
    assert.equal(typed.status, 0, typed.stdout);
    assert.ok(typed.stdout.includes(STDIN_HINT.trimEnd()), typed.stdout);
    assert.ok(typed.stdout.includes("http://a.test/x\r\n"), typed.stdout);
    const classify = run("classify");
    assert.ok(classify.stdout.includes(STDIN_HINT.trimEnd()), classify.stdout);
    // With a URL argument nothing is read from the terminal, so no hint.
    const withArg = run("--offline http://b.test/");
    assert.equal(withArg.stdout.includes("reading URLs"), false, withArg.stdout);
    assert.ok(withArg.stdout.includes("http://b.test/"));
  });

  it("no hint when stdin is a pipe", async () => {
    const r = await runCli(["--offline"], "http://a.test/\n");
    assert.equal(r.stderr, "");
  });

  it("explain accepts --offline (it never uses the network)", async () => {
    const r = await runMain(["explain", "--offline", "http://a.test/?gclid=1"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^canonical +http:\/\/a\.test\/$/m);
  });
});

describe("issue 12: blank lines print blank lines and are not failures", () => {
  const input = "http://a.test/x/\n\n \t\nhttp://b.test/\n";

  it("offline, plain: blank output lines, exit 0, nothing on stderr", async () => {
    for (const workers of ["1", "2"]) {
      const r = await runCli(["--offline", "--workers", workers], input);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "http://a.test/x\n\n\nhttp://b.test/\n");
      assert.equal(r.stderr, "");
    }
  });

  it("offline --json: one ok object with blank: true and an empty url per blank line", async () => {
    const r = await runMain(["--offline", "--json"], input);
    assert.equal(r.code, 0);
    const objects = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(objects.length, 4);
    assert.deepEqual(objects[2], {
      index: 2,
      input: " \t",
      ok: true,
      blank: true,
      url: "",
      source: "initial",
      chain: [],
      ruleApplied: null,
      paramsStripped: [],
    });
    assert.equal(objects[3].url, "http://b.test/");
  });

  it("blank arguments too", async () => {
    const r = await runMain(["--offline", "", "http://a.test/"]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "\nhttp://a.test/\n");
  });

  it("network mode: blank lines fail nothing (only blank input, so nothing can reach a network)", async () => {
    const r = await runCli([], "\n \n");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "\n\n");
    const j = await runCli(["--json"], "\n");
    assert.equal(JSON.parse(j.stdout).blank, true);
  });

  it("classify: a blank line is the class empty, exit 0", async () => {
    const r = await runMain(["classify"], "\n \n");
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "empty\t\t\t\t\t\nempty\t\t\t\t\t\n");
  });
});
