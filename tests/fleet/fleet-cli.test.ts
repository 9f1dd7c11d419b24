import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { createFleet } from "../../src/fleet/index.js";
import { createClient } from "../../src/resolve/lazy-client.js";
import type { Outcome } from "../../src/resolve/types.js";
import { fromRoot } from "../helpers/paths.js";
import { testRedisUrl } from "../helpers/redis-server.js";
import { runCli, testEnv } from "../helpers/run-cli.js";
import { essence, fleetInputs, type Origin, startOrigin } from "./origins.js";

// 20,000 inputs per run took about a minute per run here (2 cores shared by several test
// processes); 4 runs of 1,500 keep the file near a minute and still cross hundreds of chunks.
const INPUTS = 1_500;
const HOSTS = 4;
const HOST_LIMIT = 4;

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("fleet: 3 worker processes of the built binary", () => {
  let origin: Origin;
  let expected: Outcome[];
  let inputs: string[];
  before(async () => {
    origin = await startOrigin();
    inputs = fleetInputs(INPUTS, origin.server.port, HOSTS);
    const single = createClient({
      resolver: async (host) => (host.endsWith(".test") ? ["127.0.0.1"] : []),
      allowedNetworks: ["127.0.0.1/32"],
      allowedPorts: [origin.server.port],
    });
    expected = [];
    for await (const o of single.resolveMany(inputs, { concurrency: 8 })) expected.push(o);
    await single.close();
    expected.sort((a, b) => a.index - b.index);
  });
  after(() => origin.server.close());

  function startWorker(queue: string): ChildProcess {
    const args = [fromRoot("dist/cli/bin.js"), "fleet", "work", "--redis", testRedisUrl(), "--queue", queue];
    for (let h = 0; h < HOSTS; h++) args.push("--resolve", `h${h}.test:127.0.0.1`);
    args.push("--allow-network", "127.0.0.1/32", "--allowed-port", String(origin.server.port));
    args.push("--concurrency", "8", "--host-concurrency", String(HOST_LIMIT), "--stalled-interval", "1000");
    return spawn(process.execPath, args, { env: testEnv, stdio: ["ignore", "ignore", "pipe"] });
  }

  async function run(name: string, seed: number | null): Promise<void> {
    const queue = `cli${process.pid}${name}`;
    origin.peak.clear();
    const workers = [0, 1, 2].map(() => startWorker(queue));
    const exited = workers.map((w) => new Promise((resolve) => w.once("exit", resolve)));
    const fleet = createFleet({ redis: testRedisUrl(), queue });
    let killedAt = -1;
    try {
      const submitted = await runCli(
        ["fleet", "submit", "--redis", testRedisUrl(), "--queue", queue],
        `${inputs.join("\n")}\n`,
      );
      assert.equal(submitted.code, 0, submitted.stderr);
      const job = submitted.stdout.trim();
      if (seed !== null) {
        const delay = 300 + Math.floor(mulberry32(seed)() * 1500);
        setTimeout(async () => {
          killedAt = (await fleet.progress(job)).done;
          workers[0]?.kill("SIGKILL");
        }, delay);
      }
      const got: Outcome[] = [];
      for await (const o of fleet.results(job)) got.push(o);
      assert.deepEqual(
        got.map((o) => o.index),
        inputs.map((_, i) => i),
      );
      assert.deepEqual(got.map(essence), expected.map(essence));
      if (seed !== null) {
        assert.ok(killedAt >= 0 && killedAt < inputs.length, `the kill came mid-run (done ${killedAt})`);
        assert.equal(workers[0]?.signalCode, "SIGKILL");
      }
      assert.equal(origin.peak.size, HOSTS);
      for (const [host, peak] of origin.peak) assert.ok(peak <= HOST_LIMIT, `${host}: ${peak} in flight`);
    } finally {
      for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill("SIGTERM");
      await Promise.all(exited);
      await fleet.close();
    }
    for (const w of workers.slice(seed === null ? 0 : 1))
      assert.equal(w.exitCode, 0, "a worker ends cleanly on SIGTERM");
  }

  it("every index once, outcomes equal to one resolveMany, host limit held", { timeout: 120_000 }, () =>
    run("plain", null),
  );
  for (const seed of [1, 2, 3]) {
    it(
      `one worker SIGKILLed mid-run (seed ${seed}): its chunks run again, each input once`,
      { timeout: 120_000 },
      () => run(`kill${seed}`, seed),
    );
  }
});
