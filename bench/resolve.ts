// Resolver throughput against a local server with injected latency: every URL takes two hops
// (301, then 200 text/plain: HEAD only, no body read), every response waits `latencyMs` before it is
// sent. Ideal throughput is concurrency ÷ (hops × latency); the ratio says how much the resolver
// itself costs on top of the network wait, and socketsOpened says whether keep-alive held.
import { Pool } from "undici";
import { createClient } from "../src/resolve/client.js";
import { createPinnedTransport } from "../src/resolve/http/pinned-transport.js";
import { startBenchOrigin } from "./origin.js";

/** What {@link benchResolve} measured (medians over the rounds). */
export interface ResolveBenchResult {
  urls: number;
  concurrency: number;
  rounds: number;
  urlsPerSecond: number;
  idealUrlsPerSecond: number;
  ratio: number;
  /** The same two HEAD requests per URL through a bare undici Pool: no policy, DNS or normalizing. */
  peerUrlsPerSecond: number;
  /** Mean time the server held a response over the measured rounds (the ideal assumes `latencyMs`). */
  serverHoldMs: number;
  /** Sockets the pinned transport opened in all, warm-up included. */
  socketsOpened: number;
  /** Sockets opened during the measured rounds alone (0 when keep-alive held every connection). */
  socketsOpenedMeasured: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Resolves `urls` two-hop URLs with `concurrency` in flight through one client, `rounds` times,
 * interleaved with the same requests through a bare undici Pool (the peer: what the HTTP client
 * alone achieves against this server), and reports median URLs/s against the ideal, the server's
 * real mean hold time and the sockets the pinned transport opened.
 *
 * @example
 * ```ts
 * const { urlsPerSecond, ratio, peerUrlsPerSecond, socketsOpened } = await benchResolve();
 * console.log(`${(ratio * 100).toFixed(0)}% of ideal, ${(urlsPerSecond / peerUrlsPerSecond).toFixed(2)}× the peer`);
 * ```
 */
export async function benchResolve(
  urls = Number(process.env.BENCH_RESOLVE_URLS ?? 2000),
  concurrency = Number(process.env.BENCH_RESOLVE_CONCURRENCY ?? 50),
  rounds = Number(process.env.BENCH_RESOLVE_ROUNDS ?? 5),
  latencyMs = 5,
): Promise<ResolveBenchResult> {
  const origin = await startBenchOrigin(latencyMs);
  const { port } = origin;
  // The default pool caps one destination at 16 connections and the client one host at 6 requests
  // (politeness to one origin); the ideal below assumes `concurrency` requests in flight, so both
  // are sized to match and the figure is the resolver's overhead, not its politeness.
  const transport = createPinnedTransport({ maxConnectionsPerDestination: concurrency });
  const client = createClient({
    transport,
    hostConcurrency: concurrency,
    // `.test` names only, answered here: the system resolver is never consulted.
    resolver: async (hostname) => {
      if (hostname !== "bench.test") throw new Error(`unknown bench host ${hostname}`);
      return ["127.0.0.1"];
    },
    allowedNetworks: ["127.0.0.1/32"],
    allowedPorts: [port],
    preset: "rfc3986",
  });
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: concurrency });
  let round = 0;

  async function ours(count: number): Promise<number> {
    const inputs = Array.from({ length: count }, (_, i) => `http://bench.test:${port}/r/${round}-${i}`);
    let failures = 0;
    const started = performance.now();
    for await (const outcome of client.resolveMany(inputs, { concurrency })) if (!outcome.ok) failures++;
    const seconds = (performance.now() - started) / 1000;
    if (failures > 0) throw new Error(`${failures} of ${count} bench resolutions failed`);
    return count / seconds;
  }

  async function peer(count: number): Promise<number> {
    let next = 0;
    const started = performance.now();
    const lane = async (): Promise<void> => {
      while (next < count) {
        const i = next++;
        for (const path of [`/r/${round}-${i}`, `/p/${round}-${i}`]) {
          // reset: false keeps undici from closing the connection after a HEAD (see pinned-transport.ts).
          const response = await pool.request({ path, method: "HEAD", reset: false });
          await response.body.dump();
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return count / ((performance.now() - started) / 1000);
  }

  const serverHold = origin.meanHoldMs;

  try {
    // Warm-up: the JIT and both pools, outside the measured rounds. One full round each: after a
    // few hundred URLs the first measured round still ran a third slower than the rest.
    await ours(urls);
    await peer(urls);
    // Resets the server's counters: the warm-up's holds are not part of the reported mean.
    await serverHold();
    const socketsBefore = transport.socketsOpened;
    const oursRates: number[] = [];
    const peerRates: number[] = [];
    for (round = 1; round <= rounds; round++) {
      // Alternating which goes first, so neither always runs on a warmer machine.
      if (round % 2 === 0) peerRates.push(await peer(urls));
      oursRates.push(await ours(urls));
      if (round % 2 === 1) peerRates.push(await peer(urls));
    }
    const serverHoldMs = await serverHold();
    const idealUrlsPerSecond = concurrency / ((2 * latencyMs) / 1000);
    const urlsPerSecond = median(oursRates);
    return {
      urls,
      concurrency,
      rounds,
      urlsPerSecond,
      idealUrlsPerSecond,
      ratio: urlsPerSecond / idealUrlsPerSecond,
      peerUrlsPerSecond: median(peerRates),
      serverHoldMs,
      socketsOpened: transport.socketsOpened,
      socketsOpenedMeasured: transport.socketsOpened - socketsBefore,
    };
  } finally {
    await client.close();
    await transport.close();
    await pool.close();
    await origin.close();
  }
}
