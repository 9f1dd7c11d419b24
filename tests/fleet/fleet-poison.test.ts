import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { createFleet } from "../../src/fleet/index.js";
import { createClient } from "../../src/resolve/lazy-client.js";
import type { Outcome } from "../../src/resolve/types.js";
import { fromRoot } from "../helpers/paths.js";
import { testRedisUrl } from "../helpers/redis-server.js";
import { essence, fleetInputs, type Origin, originClient, startOrigin } from "./origins.js";

// How often a poison input runs: once in its chunk, once in the chunk's rerun, once alone in its
// process (POISON_CRASHES in src/fleet/fleet.ts); then it fails without running.
const POISON_RUNS = 3;

describe("fleet: a poison input that kills its worker process", () => {
  let origin: Origin;
  before(async () => {
    origin = await startOrigin();
  });
  after(() => origin.server.close());

  it("fails alone with its error after a bounded number of runs; the rest of its chunk gets its outcomes", {
    timeout: 180_000,
  }, async () => {
    const port = origin.server.port;
    const queue = `poison${process.pid}`;
    const inputs = fleetInputs(40, port, 3);
    // Early in chunk 0, so the chunk's other inputs run before and after it.
    const POISON = 3;
    inputs[POISON] = `http://poison.test:${port}/ok/poison`;
    const workers = new Set<ChildProcess>();
    let crashes = 0;
    const unexpected: string[] = [];
    let stopping = false;
    const start = (): void => {
      const worker = spawn(
        process.execPath,
        [fromRoot("build/tests/fleet/poison-worker.js"), testRedisUrl(), queue, String(port)],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      let stderr = "";
      worker.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      workers.add(worker);
      worker.once("exit", (code) => {
        workers.delete(worker);
        if (stopping) return;
        // Only the poison may end a worker, and only by its uncaught exception.
        if (code === 1 && stderr.includes("poison: this input crashes the worker process")) crashes++;
        else unexpected.push(`exit ${code}: ${stderr}`);
        start();
      });
    };
    start();
    start();
    const fleet = createFleet({ redis: testRedisUrl(), queue });
    try {
      const { job } = await fleet.submit(inputs, { chunkSize: 10 });
      const got: Outcome[] = [];
      for await (const o of fleet.results(job)) got.push(o);
      assert.deepEqual(
        got.map((o) => o.index),
        inputs.map((_, i) => i),
      );
      const poison = got[POISON];
      assert.ok(poison !== undefined && !poison.ok);
      assert.equal(poison.error.code, "internal");
      assert.match(poison.error.message, /a worker process died 2 times while resolving this input/);
      // The bound: the poison input was requested exactly this often, and killed that many workers.
      const runs = origin.server.paths.filter((p) => p === "/ok/poison").length;
      assert.equal(runs, POISON_RUNS);
      assert.equal(crashes, POISON_RUNS);
      assert.deepEqual(unexpected, []);
      // Every other input, its chunk-mates included, has the outcome one resolveMany gives it.
      const single = createClient(originClient(port));
      const expected: Outcome[] = [];
      for await (const o of single.resolveMany(
        inputs.filter((_, i) => i !== POISON),
        { concurrency: 4 },
      ))
        expected.push(o);
      await single.close();
      expected.sort((a, b) => a.index - b.index);
      const others = got.filter((o) => o.index !== POISON);
      assert.deepEqual(
        others.map((o) => essence({ ...o, index: o.index > POISON ? o.index - 1 : o.index })),
        expected.map(essence),
      );
      assert.ok(
        others.slice(0, 9).some((o) => o.ok),
        "the poison's chunk-mates succeeded",
      );
      assert.deepEqual(await fleet.progress(job), {
        total: inputs.length,
        done: inputs.length,
        failed: got.filter((o) => !o.ok).length,
      });
    } finally {
      stopping = true;
      const exits = [...workers].map((w) => new Promise((resolve) => w.once("exit", resolve)));
      for (const w of workers) w.kill("SIGTERM");
      await Promise.all(exits);
      await fleet.close();
    }
  });
});
