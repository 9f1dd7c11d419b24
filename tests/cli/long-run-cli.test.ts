import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, closeSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { fromRoot } from "../helpers/paths.js";
import { loopbackArgs, testEnv } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { seeded } from "../helpers/seeded.js";
import { tempDir } from "../helpers/temp-dir.js";

// The built binary in network mode as a long-running job: -o FILE --resume after a SIGKILL, and
// the progress display under a real pseudo-terminal. The binary reaches the local server only
// through --resolve (site.test -> 127.0.0.1) and --allow-network 127.0.0.1/32, so it never dials
// anything else.
const BIN = fromRoot("dist", "cli", "bin.js");
const LINES = 20_000;

// Input i names itself in its path, so a request shows which input it serves. Mixed: plain
// pages, redirects, 404s, blank lines and lines that fail before any network access.
function inputLine(i: number, origin: string): string {
  if (i % 101 === 50) return "";
  if (i % 211 === 100) return `ftp://site.test/${i}`;
  if (i % 13 === 5) return `${origin}/gone/${i}`;
  if (i % 7 === 3) return `${origin}/r/${i}?utm_source=feed`;
  return `${origin}/p/${i}?b=2&a=1`;
}

function handler(delayMs: number) {
  return (request: { url?: string | undefined }, response: import("node:http").ServerResponse) => {
    const answer = () => {
      const path = request.url ?? "/";
      const [, kind, n] = /^\/(\w+)\/(\d+)/.exec(path) ?? [];
      if (kind === "r") {
        response.writeHead(301, { location: `/p/${n}` });
        response.end();
      } else if (kind === "gone") {
        response.writeHead(404, { "content-type": "text/plain" });
        response.end("gone");
      } else {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("ok");
      }
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  };
}

// Index of the input a request path serves (-1 for none).
function inputOf(path: string): number {
  const m = /^\/\w+\/(\d+)/.exec(path);
  return m === null ? -1 : Number(m[1]);
}

describe("-o FILE --resume after SIGKILL gives the bytes of an uninterrupted run", () => {
  let server: LocalServer;
  let dir: string;
  let input: string;
  before(async () => {
    server = await startLocalServer({ handler: handler(0) });
    dir = tempDir("canonurl-resume-");
    input = join(dir, "in.txt");
    const origin = server.origin("site.test");
    writeFileSync(input, Array.from({ length: LINES }, (_, i) => `${inputLine(i, origin)}\n`).join(""));
  });
  after(() => server.close());

  function run(args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string }> {
    const stdin = openSync(input, "r");
    const child = spawn(process.execPath, [BIN, ...loopbackArgs(server.port, ["site.test"]), ...args], {
      stdio: [stdin, "ignore", "pipe"],
      env: testEnv,
    });
    closeSync(stdin);
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })));
  }

  // Starts a run into `file` and sends `signal` once the file has grown past `bytes`.
  async function stoppedAt(
    file: string,
    args: string[],
    bytes: number,
    signal: "SIGKILL" | "SIGTERM",
  ): Promise<{ code: number | null; signal: string | null; stderr: string }> {
    const stdin = openSync(input, "r");
    const child = spawn(
      process.execPath,
      [BIN, ...loopbackArgs(server.port, ["site.test"]), ...args, "-o", file],
      {
        stdio: [stdin, "ignore", "pipe"],
        env: testEnv,
      },
    );
    closeSync(stdin);
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on("close", (code, sig) => resolve({ code, signal: sig })),
    );
    for (;;) {
      let size = 0;
      try {
        size = statSync(file).size;
      } catch {}
      if (size >= bytes || child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.equal(child.exitCode, null, "the run ended before the stop point");
    child.kill(signal);
    return { ...(await exited), stderr };
  }

  // Plain output killed (SIGKILL) at the three points the issue asks for; --json (whose objects
  // carry the index) stopped by SIGTERM at one more, which must leave only complete lines and say
  // where it stopped. One point, to keep the suite's time in bounds.
  for (const mode of [
    { name: "plain", args: [] as string[], points: 3, signal: "SIGKILL" as const },
    { name: "--json", args: ["--json"], points: 1, signal: "SIGTERM" as const },
  ]) {
    it(`${mode.name}: ${mode.signal} at ${mode.points} seeded point(s), each resumed run completes the file exactly`, {
      timeout: 600_000,
    }, async () => {
      const args = ["--no-cache", "--concurrency", "8", ...mode.args];
      const fullFile = join(dir, `full-${mode.name}.out`);
      const full = await run([...args, "-o", fullFile]);
      assert.equal(full.code, 1, full.stderr.slice(0, 500)); // the 404s and ftp lines fail
      const expected = readFileSync(fullFile);
      assert.equal(expected.toString("utf8").split("\n").length - 1, LINES);
      const random = seeded(mode.name === "plain" ? 0x5eed : 0x1503);
      let torn = 0;
      for (let point = 0; point < mode.points; point++) {
        const file = join(dir, `part-${mode.name}-${point}.out`);
        const target = Math.floor(expected.length * (0.1 + 0.8 * random()));
        const stopped = await stoppedAt(file, args, target, mode.signal);
        let partial = readFileSync(file);
        if (mode.signal === "SIGKILL") assert.equal(stopped.signal, "SIGKILL");
        else {
          assert.equal(stopped.code, 143, stopped.stderr);
          assert.equal(partial[partial.length - 1], 10, "a SIGTERM stop leaves only complete lines");
          const lines = partial.toString("utf8").split("\n").length - 1;
          assert.match(
            stopped.stderr,
            new RegExp(`stopped by SIGTERM at input ${lines}; ${lines} inputs written`),
          );
        }
        assert.ok(
          partial.length > 0 && partial.length < expected.length,
          `killed at ${partial.length} bytes`,
        );
        if (partial[partial.length - 1] !== 10) torn++;
        else if (mode.signal === "SIGKILL" && point === mode.points - 1 && torn === 0) {
          // No kill tore a line this time: tear one by hand, as a write cut short would.
          const next = expected.subarray(partial.length, expected.indexOf(10, partial.length));
          appendFileSync(file, next.subarray(0, Math.max(1, next.length >> 1)));
          partial = readFileSync(file);
          torn++;
        }
        const kept = partial.subarray(0, partial.lastIndexOf(10) + 1);
        assert.deepEqual(kept, expected.subarray(0, kept.length), "what the killed run wrote is a prefix");
        const keptLines = kept.toString("utf8").split("\n").length - 1;
        const requestsBefore = server.paths.length;
        const resumed = await run([...args, "-o", file, "--resume"]);
        assert.ok(resumed.code === 0 || resumed.code === 1, resumed.stderr.slice(0, 500));
        assert.ok(readFileSync(file).equals(expected), `point ${point}: the resumed file differs`);
        // Only the missing inputs ran: no request served an input the file already answered.
        const served = server.paths.slice(requestsBefore).map(inputOf);
        assert.ok(served.length > 0);
        assert.equal(
          served.filter((i) => i < keptLines).length,
          0,
          `resumed at ${keptLines}, but requested inputs below it`,
        );
        // The failure reports of a resumed run carry the inputs' indexes in the whole file.
        const firstReport = /^(\d+)\t/m.exec(resumed.stderr);
        if (mode.name === "plain" && firstReport !== null) assert.ok(Number(firstReport[1]) >= keptLines);
      }
      if (mode.signal === "SIGKILL") assert.ok(torn >= 1, "some resumed file had a torn last line");
    });
  }

  it("--resume without -o, and a missing file, are handled", async () => {
    // The usage error and the rerun over a complete file run main() in-process (runMain); the
    // run that writes the file spawns the built binary.
    const r = await runMain(["--offline", "--resume", "http://a.test/"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--resume needs -o FILE/);
    const file = join(dir, "new.out");
    const ok = spawnSync(process.execPath, [BIN, "--offline", "-o", file, "--resume", "HTTP://A.test/x/"], {
      encoding: "utf8",
      env: testEnv,
    });
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(readFileSync(file, "utf8"), "http://a.test/x\n");
    // Already complete: nothing runs again, nothing is added.
    const again = await runMain(["--offline", "-o", file, "--resume", "HTTP://A.test/x/"]);
    assert.equal(again.code, 0);
    assert.equal(readFileSync(file, "utf8"), "http://a.test/x\n");
  });
});

describe("--progress under a pseudo-terminal (script -qefc)", () => {
  let server: LocalServer;
  let dir: string;
  const N = 1_000;
  before(async () => {
    server = await startLocalServer({ handler: handler(5) });
    dir = tempDir("canonurl-progress-");
    const origin = server.origin("site.test");
    writeFileSync(join(dir, "in.txt"), Array.from({ length: N }, (_, i) => `${origin}/p/${i}\n`).join(""));
  });
  after(() => server.close());

  // Async (never spawnSync): the local server answering the binary runs in this process.
  async function underTerminal(flags: string): Promise<{ status: number | null; screen: string }> {
    const command = [
      process.execPath,
      BIN,
      ...loopbackArgs(server.port, ["site.test"]),
      "--no-cache",
      "--concurrency",
      "4",
      flags,
      "< in.txt > out.txt",
    ].join(" ");
    const child = spawn("script", ["-qefc", command, "/dev/null"], {
      cwd: dir,
      env: testEnv,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let screen = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (screen += d));
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on("error", (error) =>
        reject(new Error(`util-linux \`script\` is needed for this test: ${error}`)),
      );
      child.on("close", (code) => resolve(code));
    });
    return { status, screen };
  }

  for (const flags of ["", "--progress"]) {
    it(`${flags === "" ? "by default" : flags}: counts advance to the total, with rate, failures and ETA`, async () => {
      const { status, screen } = await underTerminal(flags);
      assert.equal(status, 0, screen);
      const counts = [...screen.matchAll(/(\d+)\/(\d+) done \| (\d+)\/s \| (\d+) failed \| ETA /g)];
      assert.ok(counts.length >= 3, `progress lines: ${JSON.stringify(screen.slice(0, 400))}`);
      const done = counts.map((m) => Number(m[1]));
      for (const m of counts) assert.equal(Number(m[2]), N, "the total is the input file's line count");
      for (let i = 1; i < done.length; i++)
        assert.ok((done[i] ?? 0) >= (done[i - 1] ?? 0), "never goes back");
      assert.ok(new Set(done).size >= 3, `distinct counts: ${[...new Set(done)].join(",")}`);
      assert.equal(done.at(-1), N);
      assert.equal(readFileSync(join(dir, "out.txt"), "utf8").split("\n").length - 1, N);
    });
  }

  it("--no-progress at a terminal, and no display by default on a pipe", async () => {
    const quiet = await underTerminal("--no-progress");
    assert.equal(quiet.status, 0);
    assert.doesNotMatch(quiet.screen, /done/);
    const piped = spawnSync(process.execPath, [BIN, "--offline", "HTTP://A.test/"], {
      encoding: "utf8",
      env: testEnv,
    });
    assert.equal(piped.stderr, "");
    // Forced onto a pipe: plain lines (no cursor movement), ending at the total.
    const forced = spawnSync(
      process.execPath,
      [BIN, "--offline", "--progress", "HTTP://A.test/", "x.test/"],
      {
        encoding: "utf8",
        env: testEnv,
      },
    );
    assert.equal(forced.status, 0);
    assert.match(forced.stderr, /2\/2 done \| \d+\/s \| 0 failed/);
  });

  it("failure reports are printed above the progress line, each whole", async () => {
    const origin = server.origin("site.test");
    writeFileSync(
      join(dir, "in.txt"),
      Array.from({ length: 300 }, (_, i) =>
        i % 50 === 7 ? `ftp://bad.test/${i}\n` : `${origin}/p/${i}\n`,
      ).join(""),
    );
    const { status, screen } = await underTerminal("--progress");
    assert.equal(status, 1);
    const reports = [...screen.matchAll(/(\d+)\tftp:\/\/bad\.test\/(\d+)\tunsupported-scheme: /g)];
    assert.equal(reports.length, 6);
    for (const m of reports) assert.equal(m[1], m[2]);
    assert.match(screen, /300\/300 done \| \d+\/s \| 6 failed/);
  });
});

describe("-o FILE --resume offline, one worker and several", () => {
  it("a file cut at seeded byte offsets is completed to the uninterrupted bytes", () => {
    const dir = tempDir("canonurl-resume-offline-");
    const input = join(dir, "in.txt");
    // Mixed: successes, failures, blanks, a lone \r, so every kind of output line can be cut.
    const text = Array.from({ length: 30_000 }, (_, i) =>
      i % 97 === 3
        ? ""
        : i % 89 === 5
          ? `ftp://f.test/${i}`
          : i % 83 === 1
            ? `http://cr.test/a\rb${i}`
            : `HTTP://H${i % 50}.test/p/${i}/?utm_source=x&k=${i}`,
    ).join("\n");
    writeFileSync(input, `${text}\n`);
    const cli = (args: string[]) => {
      const stdin = openSync(input, "r");
      const r = spawnSync(process.execPath, [BIN, "--offline", ...args], {
        stdio: [stdin, "pipe", "pipe"],
        encoding: "utf8",
        env: testEnv,
      });
      closeSync(stdin);
      return r;
    };
    const fullFile = join(dir, "full.out");
    assert.equal(cli(["-o", fullFile]).status, 1);
    const expected = readFileSync(fullFile);
    const random = seeded(0x0ff1);
    for (const workers of ["1", "2"]) {
      for (let k = 0; k < 2; k++) {
        const cut = 1 + Math.floor(random() * (expected.length - 2));
        const file = join(dir, `cut-${workers}-${k}.out`);
        writeFileSync(file, expected.subarray(0, cut));
        const r = cli(["--workers", workers, "-o", file, "--resume"]);
        assert.equal(r.status, 1, r.stderr.slice(0, 300));
        assert.ok(readFileSync(file).equals(expected), `--workers ${workers}, cut at ${cut}`);
        // The resumed run reported only failures at or after the first line it ran.
        const kept = expected.subarray(0, cut).toString("utf8").split("\n").length - 1;
        for (const m of r.stderr.matchAll(/^(\d+)\t/gm)) assert.ok(Number(m[1]) >= kept);
      }
    }
  });
});
