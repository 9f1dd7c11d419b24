// A duplicate-heavy batch (10,000 inputs over 500 distinct URLs, shuffled with a fixed seed)
// through resolveMany, with a memoryCache against without a cache: requests the server saw and
// wall time. Every response is held 5 ms by a bare `net` server in its own thread (as in the
// resolver group, so the server's CPU is not charged to the client); every URL takes two hops.
import { memoryCache } from "../src/cache/memory-cache.js";
import { createClient } from "../src/resolve/client.js";
import { createPinnedTransport } from "../src/resolve/http/pinned-transport.js";
import { seeded, shuffled } from "../tests/helpers/seeded.js";
import { startBenchOrigin } from "./origin.js";

/** What {@link benchDedupe} measured: medians over the rounds of each mode. */
export interface DedupeBenchResult {
  inputs: number;
  distinct: number;
  concurrency: number;
  rounds: number;
  withCache: { requests: number; ms: number };
  withoutCache: { requests: number; ms: number };
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Runs the duplicate-heavy batch `rounds` times with a fresh memoryCache per round and `rounds`
 * times without a cache, alternating, each with a fresh client (a cold start every round: the
 * figure is what deduping one list saves).
 *
 * @example
 * ```ts
 * const r = await benchDedupe();
 * r.withCache.requests / r.withoutCache.requests; // 0.05
 * ```
 */
export async function benchDedupe(
  inputs = Number(process.env.BENCH_DEDUPE_INPUTS ?? 10_000),
  distinct = Number(process.env.BENCH_DEDUPE_DISTINCT ?? 500),
  concurrency = 50,
  rounds = Number(process.env.BENCH_DEDUPE_ROUNDS ?? 3),
  latencyMs = 5,
): Promise<DedupeBenchResult> {
  const origin = await startBenchOrigin(latencyMs);
  const { port } = origin;
  const count = origin.requests;
  const list = shuffled(
    Array.from({ length: inputs }, (_, i) => `http://bench.test:${port}/r/${i % distinct}`),
    seeded(7),
  );

  async function once(withCache: boolean): Promise<{ requests: number; ms: number }> {
    const transport = createPinnedTransport({ maxConnectionsPerDestination: concurrency });
    const cache = withCache ? memoryCache() : undefined;
    const client = createClient({
      transport,
      resolver: async (hostname) => {
        if (hostname !== "bench.test") throw new Error(`unknown bench host ${hostname}`);
        return ["127.0.0.1"];
      },
      allowedNetworks: ["127.0.0.1/32"],
      allowedPorts: [port],
      ...(cache === undefined ? {} : { cache }),
    });
    await count();
    const started = performance.now();
    let failures = 0;
    for await (const outcome of client.resolveMany(list, { concurrency })) if (!outcome.ok) failures++;
    const ms = performance.now() - started;
    await client.close();
    await cache?.close();
    await transport.close();
    if (failures > 0) throw new Error(`${failures} dedupe bench resolutions failed`);
    return { requests: await count(), ms };
  }

  try {
    await once(true); // warm-up: the JIT, outside the measured rounds
    const withRuns: { requests: number; ms: number }[] = [];
    const withoutRuns: { requests: number; ms: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) withoutRuns.push(await once(false));
      withRuns.push(await once(true));
      if (round % 2 === 1) withoutRuns.push(await once(false));
    }
    return {
      inputs,
      distinct,
      concurrency,
      rounds,
      withCache: { requests: median(withRuns.map((r) => r.requests)), ms: median(withRuns.map((r) => r.ms)) },
      withoutCache: {
        requests: median(withoutRuns.map((r) => r.requests)),
        ms: median(withoutRuns.map((r) => r.ms)),
      },
    };
  } finally {
    await origin.close();
  }
}
