import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createFleet } from "../../src/fleet/index.js";
import { createClient } from "../../src/resolve/lazy-client.js";
import type { ClientOptions, Outcome } from "../../src/resolve/types.js";
import { testRedisUrl } from "../helpers/redis-server.js";
import { essence, fleetInputs, type Origin, originClient, startOrigin } from "./origins.js";

describe("fleet (in-process workers, real Redis)", () => {
  let origin: Origin;
  let client: ClientOptions;
  before(async () => {
    origin = await startOrigin();
    client = originClient(origin.server.port, { totalTimeoutMs: 5_000 });
  });
  after(() => origin.server.close());

  it("every input once, in order, equal to a single-process resolveMany; the host limit holds", {
    timeout: 60_000,
  }, async () => {
    const queue = `t${process.pid}a`;
    const inputs = fleetInputs(1_000, origin.server.port, 3);
    const fleet = createFleet({ redis: testRedisUrl(), queue, client, hostLimit: 3 });
    const stop = new AbortController();
    const workers = [1, 2].map(() => createFleet({ redis: testRedisUrl(), queue, client, hostLimit: 3 }));
    const running = workers.map((w) => w.work({ concurrency: 8, signal: stop.signal }));
    try {
      const { job, count } = await fleet.submit(inputs, { chunkSize: 37 });
      assert.equal(count, inputs.length);
      const got: Outcome[] = [];
      for await (const o of fleet.results(job)) got.push(o);
      assert.deepEqual(
        got.map((o) => o.index),
        inputs.map((_, i) => i),
      );
      // Before the single-process run below, which has no fleet limit.
      assert.equal(origin.peak.size, 3);
      for (const [host, peak] of origin.peak) assert.ok(peak <= 3, `${host} had ${peak} in flight`);
      assert.ok(
        [...origin.peak.values()].some((peak) => peak === 3),
        "the limit was reached",
      );
      const single = createClient(client);
      const expected: Outcome[] = [];
      for await (const o of single.resolveMany(inputs, { concurrency: 8 })) expected.push(o);
      await single.close();
      expected.sort((a, b) => a.index - b.index);
      assert.deepEqual(got.map(essence), expected.map(essence));
      assert.ok(
        got.some((o) => o.ok && o.result.source === "redirect"),
        "redirects were reached",
      );
      assert.ok(
        got.some((o) => !o.ok && o.error.code === "http-status"),
        "404 failures were reached",
      );
      assert.ok(
        got.some((o) => !o.ok && o.error.code === "invalid-url"),
        "invalid inputs were reached",
      );
      const progress = await fleet.progress(job);
      assert.deepEqual(progress, {
        total: inputs.length,
        done: inputs.length,
        failed: got.filter((o) => !o.ok).length,
      });
      // Read again: results stay in Redis.
      let again = 0;
      for await (const _ of fleet.results(job, { follow: false })) again++;
      assert.equal(again, inputs.length);
    } finally {
      stop.abort();
      await Promise.all(running);
      await Promise.all(workers.map((w) => w.close()));
      await fleet.close();
    }
  });
});
