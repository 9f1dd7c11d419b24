import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { fromRoot } from "../helpers/paths.js";
import { loopbackArgs, runCli, testEnv } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { seeded } from "../helpers/seeded.js";
import { tempDir } from "../helpers/temp-dir.js";

// A run whose point is its arguments and output calls main() in this process (runMain): no Node
// start per case. The first case of a table and every run whose point is the process (--workers
// threads, stdin on a pipe, network mode, large streamed inputs) spawn the built binary (runCli).

// Issue 22, item 10: dedupe is a first-class job. --unique prints each key once in first-seen
// order; --groups prints one NDJSON object per key with the inputs it united; both are bounded.

const LINKS = [
  "https://youtu.be/dQw4w9WgXcQ?si=abc",
  "https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share",
  "",
  "ftp://not-http.test/x",
  "https://example.com/a?utm_source=x",
  "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
  "https://example.com/a",
  "https://example.com/b",
].join("\n");

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

describe("canonurl --unique", () => {
  it("prints each key once, in the order of its first input; blank and failed inputs print nothing", async () => {
    const r = await runCli(["--offline", "--unique"], `${LINKS}\n`);
    assert.equal(r.code, 1, "a failed input still makes the status 1");
    assert.deepEqual(lines(r.stdout), [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://example.com/a",
      "https://example.com/b",
    ]);
    assert.equal(r.stdout.split("\n").length, 4, "no empty lines");
    assert.match(r.stderr, /^3\tftp:\/\/not-http\.test\/x\tunsupported-scheme: /m);
  });

  it("prints the same bytes with --workers 2 as with one thread, over many duplicates", async () => {
    const random = seeded(22);
    let input = "";
    for (let i = 0; i < 20_000; i++)
      input += `https://site${Math.floor(random() * 500)}.test/p?utm_source=${i}\n`;
    const one = await runMain(["--offline", "--unique"], input);
    const two = await runCli(["--offline", "--unique", "--workers", "2"], input);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(two.code, 0, two.stderr);
    const keys = lines(one.stdout);
    assert.ok(keys.length > 400 && keys.length <= 500, `${keys.length} keys`);
    assert.equal(new Set(keys).size, keys.length, "no key twice");
    assert.equal(two.stdout, one.stdout);
  });

  it("prints archive keys with --format surt", async () => {
    const r = await runMain(
      ["--offline", "--unique", "--format", "surt"],
      "http://www.a.test/x\nhttps://a.test/x?utm_medium=y\n",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(lines(r.stdout), ["test,a)/x"]);
  });

  it("writes to -o FILE", async () => {
    const file = join(tempDir("canonurl-unique-"), "keys.txt");
    const r = await runMain(
      ["--offline", "--unique", "-o", file],
      "https://a.test/1\nhttps://a.test/1?gclid=x\nhttps://a.test/2\n",
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "");
    assert.equal(readFileSync(file, "utf8"), "https://a.test/1\nhttps://a.test/2\n");
  });

  it("stops at --max-keys with status 2, having printed only distinct keys", async () => {
    let input = "";
    for (let i = 0; i < 10_000; i++) input += `https://a.test/${i % 7_000}\n`;
    const r = await runMain(["--offline", "--unique", "--max-keys", "5000"], input);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--unique holds at most 5000 distinct keys \(--max-keys\) and input 5000 brings one more/,
    );
    const keys = lines(r.stdout);
    assert.ok(keys.length <= 5000, `${keys.length} keys printed`);
    assert.equal(new Set(keys).size, keys.length);
  });

  it("a full disk on stdout is exit 74, and names no input to resume from", async () => {
    const full = openSync("/dev/full", "w");
    try {
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [fromRoot("dist/cli/bin.js"), "--offline", "--unique"], {
          env: testEnv,
          stdio: ["pipe", full, "pipe"],
        });
        let stderr = "";
        child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stderr }));
        child.stdin?.end("https://a.test/1\nhttps://a.test/2\n");
      });
      assert.equal(r.code, 74, r.stderr);
      assert.match(r.stderr, /cannot write stdout.*ENOSPC/);
      assert.doesNotMatch(r.stderr, /--resume/);
    } finally {
      closeSync(full);
    }
  });

  describe("network mode", () => {
    let server: LocalServer;
    before(async () => {
      // /old/N redirects to /new/N: two spellings of one resource after resolution.
      server = await startLocalServer({
        handler: (request, response) => {
          const m = /^\/old\/(\d+)$/.exec(request.url ?? "");
          if (m !== null) response.writeHead(301, { location: `/new/${m[1]}` }).end();
          else response.writeHead(200, { "content-type": "text/plain" }).end("ok");
        },
      });
    });
    after(() => server.close());

    it("unites inputs that lead to one URL", async () => {
      const origin = server.origin("site.test");
      const r = await runCli(
        [...loopbackArgs(server.port, ["site.test"]), "--no-cache", "--unique"],
        `${origin}/old/1\n${origin}/new/1\n${origin}/new/2\n${origin}/old/2\n`,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(lines(r.stdout), [`${origin}/new/1`, `${origin}/new/2`]);
    });
  });
});

describe("canonurl --groups", () => {
  it("prints one object per key, in first-seen order, with the inputs it united", async () => {
    const r = await runCli(["--offline", "--groups"], `${LINKS}\n`);
    assert.equal(r.code, 1);
    const groups = lines(r.stdout).map(
      (l) => JSON.parse(l) as { key: string; count: number; inputs: string[] },
    );
    assert.deepEqual(groups, [
      {
        key: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        count: 3,
        inputs: [
          "https://youtu.be/dQw4w9WgXcQ?si=abc",
          "https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share",
          "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
        ],
      },
      {
        key: "https://example.com/a",
        count: 2,
        inputs: ["https://example.com/a?utm_source=x", "https://example.com/a"],
      },
      { key: "https://example.com/b", count: 1, inputs: ["https://example.com/b"] },
    ]);
    assert.match(r.stderr, /^3\tftp:\/\/not-http\.test\/x\tunsupported-scheme: /m);
  });

  it("keeps at most --group-inputs inputs of one key and counts the rest", async () => {
    let input = "";
    for (let i = 0; i < 50_000; i++) input += `https://a.test/x?utm_source=${i}\n`;
    const r = await runMain(["--offline", "--groups", "--group-inputs", "3"], input);
    assert.equal(r.code, 0, r.stderr);
    const groups = lines(r.stdout).map(
      (l) => JSON.parse(l) as { key: string; count: number; inputs: string[] },
    );
    assert.equal(groups.length, 1);
    assert.equal(groups[0]?.count, 50_000);
    assert.deepEqual(groups[0]?.inputs, [
      "https://a.test/x?utm_source=0",
      "https://a.test/x?utm_source=1",
      "https://a.test/x?utm_source=2",
    ]);
  });

  it("keys by the archive key with --format ssurt, and with --workers 2 the same bytes", async () => {
    const input = "https://a.test/x?b=1&a=2\nhttps://a.test/x?a=2&b=1\nhttps://b.test/\n";
    const one = await runMain(["--offline", "--groups", "--format", "ssurt"], input);
    const two = await runCli(["--offline", "--groups", "--format", "ssurt", "--workers", "2"], input);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(lines(one.stdout).length, 2);
    assert.equal(two.stdout, one.stdout);
  });

  it("stops at --max-keys with status 2 and prints no partial grouping", async () => {
    const r = await runMain(
      ["--offline", "--groups", "--max-keys", "2"],
      "https://a.test/1\nhttps://a.test/2\nhttps://a.test/3\n",
    );
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /--groups holds at most 2 distinct keys/);
  });
});

describe("dedupe usage errors", () => {
  for (const [args, message] of [
    [["--unique", "--groups"], /choose one/],
    [["--unique", "--json"], /does not take --json/],
    [["--groups", "--json"], /does not take --json/],
    [["--unique", "--resume", "-o", "out.txt"], /cannot --resume/],
    [["--max-keys", "5"], /--max-keys goes with --unique or --groups/],
    [["--unique", "--group-inputs", "5"], /--group-inputs goes with --groups/],
    [["--unique", "--max-keys", "0"], /--max-keys must be an integer from 1/],
    [["--groups", "--group-inputs", "x"], /--group-inputs must be an integer from 1/],
  ] as const) {
    it(`${args.join(" ")} is a usage error`, async () => {
      const r = await runMain(["--offline", ...args], "https://a.test/\n");
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, message);
    });
  }
});
