// A duplicate-heavy batch (10,000 inputs over 500 distinct URLs, shuffled with a fixed seed)
// through resolveMany, with a memoryCache against without a cache: requests the server saw and
// wall time. Every response is held 5 ms by a bare `net` server in its own thread (as in the
// resolver group, so the server's CPU is not charged to the client); every URL takes two hops.
import { Worker } from "node:worker_threads";
import { memoryCache } from "../src/cache/memory-cache.js";
import { createClient } from "../src/resolve/client.js";
import { createPinnedTransport } from "../src/resolve/http/pinned-transport.js";

const SERVER = `
const { createServer } = require("node:net");
const { parentPort, workerData } = require("node:worker_threads");
const keep = "content-length: 0\\r\\nconnection: keep-alive\\r\\nkeep-alive: timeout=60\\r\\n\\r\\n";
let requests = 0;
const server = createServer((socket) => {
  socket.setNoDelay(true);
  socket.setEncoding("latin1");
  socket.on("error", () => {});
  let pending = "";
  socket.on("data", (data) => {
    pending += data;
    for (let end = pending.indexOf("\\r\\n\\r\\n"); end !== -1; end = pending.indexOf("\\r\\n\\r\\n")) {
      const line = pending.slice(0, pending.indexOf("\\r\\n"));
      pending = pending.slice(end + 4);
      const path = line.split(" ")[1] ?? "/";
      requests++;
      const response = path.startsWith("/d/")
        ? "HTTP/1.1 301 Moved Permanently\\r\\nlocation: /p/" + path.slice(3) + "\\r\\n" + keep
        : "HTTP/1.1 200 OK\\r\\ncontent-type: text/plain\\r\\n" + keep;
      setTimeout(() => socket.write(response), workerData.latencyMs);
    }
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", (message) => {
  if (message === "count") {
    parentPort.postMessage(requests);
    requests = 0;
  } else server.close(() => process.exit(0));
});
`;

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

/** mulberry32, so every run shuffles the same way. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
  const worker = new Worker(SERVER, { eval: true, workerData: { latencyMs } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const count = (): Promise<number> =>
    new Promise((resolve) => {
      worker.once("message", resolve);
      worker.postMessage("count");
    });
  const random = seeded(7);
  const list = Array.from({ length: inputs }, (_, i) => `http://bench.test:${port}/d/${i % distinct}`);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as string, list[i] as string];
  }

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
    worker.postMessage("stop");
    await worker.terminate();
  }
}
