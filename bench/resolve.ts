// Resolver throughput against a local server with injected latency: every URL takes two hops
// (301, then 200 text/plain: HEAD only, no body read), every response waits `latencyMs` before it is
// sent. Ideal throughput is concurrency ÷ (hops × latency); the ratio says how much the resolver
// itself costs on top of the network wait, and socketsOpened says whether keep-alive held.
import { Worker } from "node:worker_threads";
import { createClient } from "../src/resolve/client.js";
import { createPinnedTransport } from "../src/resolve/pinned-transport.js";

/** What {@link benchResolve} measured. */
export interface ResolveBenchResult {
  urls: number;
  concurrency: number;
  urlsPerSecond: number;
  idealUrlsPerSecond: number;
  ratio: number;
  /** Sockets the pinned transport opened in all, warm-up included. */
  socketsOpened: number;
  /** Sockets opened during the measured run alone (0 when keep-alive held every connection). */
  socketsOpenedMeasured: number;
}

// The server runs in its own thread so its event loop does not share a core with the client's.
const SERVER = `
const { createServer } = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const server = createServer((request, response) => {
  setTimeout(() => {
    const path = request.url ?? "/";
    if (path.startsWith("/r/")) {
      response.writeHead(301, { location: "/p/" + path.slice(3), "content-length": "0" });
    } else {
      response.writeHead(200, { "content-type": "text/plain", "content-length": "0" });
    }
    response.end();
  }, workerData.latencyMs);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => server.close(() => process.exit(0)));
server.closeAllConnections && parentPort.on("message", () => server.closeAllConnections());
`;

/**
 * Resolves `urls` two-hop URLs with `concurrency` in flight through one client and reports
 * URLs/s against the ideal and the sockets the pinned transport opened.
 *
 * @example
 * ```ts
 * const { urlsPerSecond, ratio, socketsOpened } = await benchResolve();
 * console.log(`${urlsPerSecond.toFixed(0)} URLs/s, ${(ratio * 100).toFixed(0)}% of ideal, ${socketsOpened} sockets`);
 * ```
 */
export async function benchResolve(
  urls = Number(process.env.BENCH_RESOLVE_URLS ?? 2000),
  concurrency = Number(process.env.BENCH_RESOLVE_CONCURRENCY ?? 50),
  latencyMs = 5,
): Promise<ResolveBenchResult> {
  const worker = new Worker(SERVER, { eval: true, workerData: { latencyMs } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  // The default pool caps one destination at 16 connections (politeness to one origin); the ideal
  // below assumes `concurrency` requests in flight, so the pool is sized to match.
  const transport = createPinnedTransport({ maxConnectionsPerDestination: concurrency });
  const client = createClient({
    transport,
    // `.test` names only, answered here: the system resolver is never consulted.
    resolver: async (hostname) => {
      if (hostname !== "bench.test") throw new Error(`unknown bench host ${hostname}`);
      return ["127.0.0.1"];
    },
    allowedNetworks: ["127.0.0.1/32"],
    allowedPorts: [port],
    preset: "rfc3986",
  });
  try {
    // Warm-up: JIT and the pool, outside the measured run.
    const warm = Array.from({ length: concurrency * 2 }, (_, i) => `http://bench.test:${port}/r/warm${i}`);
    for await (const _ of client.resolveMany(warm, { concurrency })) {
      // drained
    }
    const socketsBefore = transport.socketsOpened;
    const inputs = Array.from({ length: urls }, (_, i) => `http://bench.test:${port}/r/${i}`);
    let failures = 0;
    const started = performance.now();
    for await (const outcome of client.resolveMany(inputs, { concurrency })) if (!outcome.ok) failures++;
    const seconds = (performance.now() - started) / 1000;
    if (failures > 0) throw new Error(`${failures} of ${urls} bench resolutions failed`);
    const idealUrlsPerSecond = concurrency / ((2 * latencyMs) / 1000);
    const urlsPerSecond = urls / seconds;
    return {
      urls,
      concurrency,
      urlsPerSecond,
      idealUrlsPerSecond,
      ratio: urlsPerSecond / idealUrlsPerSecond,
      socketsOpened: transport.socketsOpened,
      socketsOpenedMeasured: transport.socketsOpened - socketsBefore,
    };
  } finally {
    await client.close();
    await transport.close();
    worker.postMessage("stop");
    await worker.terminate();
  }
}
