import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createFleet } from "../../src/fleet/index.js";
import { createClient } from "../../src/resolve/lazy-client.js";
import type { ClientOptions, Outcome } from "../../src/resolve/types.js";
import { startRestartableRedis } from "../helpers/redis-server.js";
import { essence, fleetInputs, type Origin, originClient, startOrigin } from "./origins.js";

describe("fleet: Redis restarted mid-run", () => {
  let origin: Origin;
  let client: ClientOptions;
  before(async () => {
    origin = await startOrigin();
    // Generous: on a loaded machine a slow answer must not pass for a fleet fault.
    client = originClient(origin.server.port, { totalTimeoutMs: 20_000 });
  });
  after(() => origin.server.close());

  // The library's own workers, in this process, over 1,500 inputs; the binary's workers over
  // 20,000 are restarted on in fleet-cli.test.ts.
  it("workers and the reader reconnect; every input once, equal to one resolveMany", {
    timeout: 90_000,
  }, async () => {
    const redis = await startRestartableRedis();
    const { url } = redis;
    const inputs = fleetInputs(1_500, origin.server.port, 3, 50);
    const options = { redis: url, client, stalledIntervalMs: 1_000 };
    const fleet = createFleet(options);
    const workers = [createFleet(options), createFleet(options)];
    const stop = new AbortController();
    const running = workers.map((w) => w.work({ concurrency: 8, signal: stop.signal }));
    let restarted = false;
    try {
      const { job } = await fleet.submit(inputs, { chunkSize: 25 });
      const got: Outcome[] = [];
      for await (const o of fleet.results(job)) {
        got.push(o);
        if (got.length === 300 && !restarted) {
          // Work done while it is away is lost with it and must be done again.
          await redis.restart();
          restarted = true;
        }
      }
      assert.ok(restarted, "Redis was restarted mid-run");
      assert.deepEqual(
        got.map((o) => o.index),
        inputs.map((_, i) => i),
      );
      const single = createClient(client);
      const expected: Outcome[] = [];
      for await (const o of single.resolveMany(inputs, { concurrency: 8 })) expected.push(o);
      await single.close();
      expected.sort((a, b) => a.index - b.index);
      assert.deepEqual(got.map(essence), expected.map(essence));
    } finally {
      stop.abort();
      await Promise.all(running);
      await Promise.all(workers.map((w) => w.close()));
      await fleet.close();
      await redis.stop();
    }
  });
});
