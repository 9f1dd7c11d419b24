// Runs ONLY inside a loopback-only network namespace (picked up by tests/integration/netns.test.ts
// as flow-*.netns.js): the built binary reaches 127.0.0.1:80 with nothing but --allow-private.
// Issue 11: SIGTERM/SIGINT mid-run write exactly the finished in-order prefix, name the index on
// stderr, and exit 143/130, with stdin still open (the run stops taking input by itself).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { networkInterfaces } from "node:os";
import { after, before, describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

const interfaces = Object.keys(networkInterfaces());
if (interfaces.some((name) => name !== "lo")) {
  throw new Error(`refusing to run outside a loopback-only namespace (interfaces: ${interfaces.join(", ")})`);
}

describe("the canonurl binary stopped by a signal (netns, 127.0.0.1:80)", () => {
  let server: Server;
  const answered: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? "/";
      if (path.startsWith("/hang")) return; // a slow server: never answers
      answered.push(path);
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("ok");
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject).listen(80, "127.0.0.1", resolve);
    });
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal} mid-run: the in-order prefix, the index on stderr, exit ${code}`, {
      timeout: 20_000,
    }, async () => {
      // --no-cache: this test is about the stop, and must not write a cache into the real home.
      const child = spawn(process.execPath, [fromRoot("dist/cli/bin.js"), "--allow-private", "--no-cache"], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on("exit", (c, s) => resolve({ code: c, signal: s })),
      );
      const paths = ["/a", "/b", "/hang", "/c", "/d"].map((p) => `${p}-${signal}`);
      // stdin stays open: the run must stop on the signal, not at the end of its input.
      child.stdin.write(paths.map((p) => `http://127.0.0.1${p}\n`).join(""));
      const behind = [`/c-${signal}`, `/d-${signal}`];
      while (!(stdout.split("\n").length > 2 && behind.every((p) => answered.includes(p)))) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 100));
      child.kill(signal);
      const result = await exited;
      assert.deepEqual(result, { code, signal: null }, stderr);
      assert.equal(stdout, `http://127.0.0.1/a-${signal}\nhttp://127.0.0.1/b-${signal}\n`);
      assert.equal(stderr, `canonurl: stopped by ${signal} at input 2; 2 inputs written\n`);
    });
  }
});
