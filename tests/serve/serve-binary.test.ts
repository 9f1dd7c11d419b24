import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { runCli } from "../helpers/run-cli.js";
import { startServeBinary } from "../helpers/serve-binary.js";

/** One request on a fresh connection (no agent), so a refused connection shows as ECONNREFUSED. */
function send(url: string, method = "GET", body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (d: string) => (text += d));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("canonurl serve (the built binary)", () => {
  let origin: LocalServer;
  const held: ServerResponse[] = [];
  let holding = true;
  before(async () => {
    origin = await startLocalServer({
      handler: (request, response) => {
        if ((request.url ?? "").startsWith("/slow") && holding) held.push(response);
        else response.end("ok");
      },
    });
  });
  after(async () => {
    for (const response of held) response.destroy();
    await origin.close();
  });

  it("prints its address, answers, and on SIGTERM drains the request in flight, refuses new connections, exits 0", {
    timeout: 20_000,
  }, async () => {
    const served = await startServeBinary([
      "--allow-resolve",
      "--no-cache",
      "--resolve",
      "slow.test:127.0.0.1",
      "--allow-network",
      "127.0.0.1/32",
      "--allowed-port",
      String(origin.port),
    ]);
    try {
      assert.deepEqual(await send(`${served.url}/healthz`), { status: 200, body: '{"ok":true}' });
      const slow = send(
        `${served.url}/v1/resolve`,
        "POST",
        `{"url":"http://slow.test:${origin.port}/slow?token=abc"}\n`,
      );
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));

      served.child.kill("SIGTERM");
      while (!served.stderr().includes("draining")) await new Promise((resolve) => setTimeout(resolve, 10));
      await assert.rejects(send(`${served.url}/healthz`), (error: NodeJS.ErrnoException) => {
        assert.equal(error.code, "ECONNREFUSED");
        return true;
      });
      let exited = false;
      void served.exited.then(() => (exited = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(exited, false, "the service waits for the request in flight");

      // The origin answers the held request, and any later one at once.
      holding = false;
      for (const response of held.splice(0)) response.end("ok");
      const answer = await slow;
      assert.equal(answer.status, 200);
      const line = JSON.parse(answer.body.trim()) as { index: number; ok: boolean };
      assert.equal(line.index, 0);
      assert.equal(await served.exited, 0);
      assert.match(served.stderr(), /resolve host=slow\.test/);
      assert.doesNotMatch(served.stderr(), /token=abc|\/slow/, "logs carry the host only");
    } finally {
      served.child.kill("SIGKILL");
    }
  });

  it("a bad flag is a usage error (exit 2) naming it", async () => {
    for (const [args, flag] of [
      [["serve", "--port", "http"], /--port/],
      [["serve", "--resolve", "nohost"], /--resolve/],
      [["serve", "--allow-network", "10.0.0.0/99"], /--allow-network/],
      [["serve", "--max-batch", "0"], /--max-batch/],
      [["serve", "extra"], /no arguments/],
      [["serve", "--allow-resolve", "--cache", "x.sqlite", "--no-cache"], /--no-cache/],
    ] as const) {
      const run = await runCli(args);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, flag);
    }
  });
});
