// The fleet origin and the single-process expectation, in a worker thread of the test's process.
//
// Why a thread: node:test keeps an async hook (init and destroy) on its own thread, for every
// promise and handle of the test file. The origin answers ~23,000 requests per 20,000-input run
// and the expectation is a resolveMany of those 20,000 inputs: under the hook that work cost
// 1.5–1.6× what it costs outside it (the same resolveMany with its origin, 20,000 inputs: 7.3 CPU-s
// in a test against 4.6 s in a plain script on Node 20; 6.6 against 4.4 on Node 24; 5 Dec 2026). A
// worker thread has no such hook: the same work, the same process, less CPU. The origin is the one
// of origins.ts and the expectation the same resolveMany over the same inputs; only the thread
// they run on changed.
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { createClient } from "../../src/resolve/lazy-client.js";
import type { Outcome } from "../../src/resolve/types.js";
import { essence, fleetInputs, originClient, startOrigin } from "./origins.js";

/** What {@link startOriginThread} returns: the origin's port and what it saw, on demand. */
export interface OriginThread {
  readonly port: number;
  /** The peak of requests in flight per Host header since the last {@link clearPeak}. */
  peak(): Promise<Map<string, number>>;
  /** Requests the origin answered since the last {@link clearPeak}. */
  served(): Promise<number>;
  clearPeak(): Promise<void>;
  /**
   * `essence` of every outcome of one `resolveMany` (concurrency 32, the origin-only client of
   * {@link originClient}) over `fleetInputs(n, port, hosts, slowEvery)`, in input order.
   */
  expected(n: number, hosts: number, slowEvery: number): Promise<unknown[]>;
  close(): Promise<void>;
}

type Request =
  | { id: number; op: "peak" | "served" | "clear" | "close" }
  | { id: number; op: "expected"; n: number; hosts: number; slowEvery: number };

const MARK = "canonurl-fleet-origin-thread";

/**
 * Starts the fleet origin (origins.ts) in a worker thread.
 *
 * @example
 * ```ts
 * const origin = await startOriginThread();
 * const expected = await origin.expected(20_000, 4, 50);
 * await origin.close();
 * ```
 */
export async function startOriginThread(): Promise<OriginThread> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { [MARK]: true } });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let next = 0;
  let failure: unknown;
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", (message: { port: number }) => resolve(message.port));
    worker.once("error", reject);
  });
  worker.on("message", (message: { id: number; value?: unknown; error?: string }) => {
    const settle = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) settle?.reject(new Error(message.error));
    else settle?.resolve(message.value);
  });
  worker.on("error", (error) => {
    failure = error;
    for (const settle of waiting.values()) settle.reject(error);
    waiting.clear();
  });
  const ask = (request: Omit<Request, "id"> & Partial<Request>): Promise<unknown> => {
    if (failure !== undefined) return Promise.reject(failure);
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };
  return {
    port,
    async peak() {
      return new Map(Object.entries((await ask({ op: "peak" })) as Record<string, number>));
    },
    async served() {
      return (await ask({ op: "served" })) as number;
    },
    async clearPeak() {
      await ask({ op: "clear" });
    },
    async expected(n, hosts, slowEvery) {
      return (await ask({ op: "expected", n, hosts, slowEvery })) as unknown[];
    },
    async close() {
      await ask({ op: "close" }).catch(() => {});
      await worker.terminate();
    },
  };
}

// The thread's side: the origin, answering the main thread's requests.
if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true) {
  const origin = await startOrigin();
  const port = origin.server.port;
  let servedBefore = 0;
  const out = parentPort;
  if (out === null) throw new Error("origin-thread: no parent port");
  out.on("message", async (request: Request) => {
    try {
      let value: unknown;
      if (request.op === "peak") value = Object.fromEntries(origin.peak);
      else if (request.op === "served") value = origin.server.requests - servedBefore;
      else if (request.op === "clear") {
        origin.peak.clear();
        servedBefore = origin.server.requests;
      } else if (request.op === "close") await origin.server.close();
      else if (request.op === "expected") {
        const inputs = fleetInputs(request.n, port, request.hosts, request.slowEvery);
        const single = createClient(originClient(port));
        const outcomes: Outcome[] = [];
        for await (const o of single.resolveMany(inputs, { concurrency: 32 })) outcomes.push(o);
        await single.close();
        outcomes.sort((a, b) => a.index - b.index);
        value = outcomes.map(essence);
      }
      out.postMessage({ id: request.id, value });
    } catch (error) {
      out.postMessage({ id: request.id, error: String(error) });
    }
  });
  out.postMessage({ port });
}
