// The origin the network benches dial: a bare `net` server in its own thread answering every
// request head after `latencyMs` with a prebuilt response (`/r/N` → 301 to `/p/N`, else 200
// text/plain, no body). node:http costs the server thread as much CPU per request as the client
// spends; on a two-core machine that contention lands in the figure as resolver overhead, which
// it is not. It counts the requests it answers and how long it held them.
import { Worker } from "node:worker_threads";

const SERVER = `
const { createServer } = require("node:net");
const { parentPort, workerData } = require("node:worker_threads");
const keep = "content-length: 0\\r\\nconnection: keep-alive\\r\\nkeep-alive: timeout=60\\r\\n\\r\\n";
const ok = "HTTP/1.1 200 OK\\r\\ncontent-type: text/plain\\r\\n" + keep;
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
      const response = path.startsWith("/r/")
        ? "HTTP/1.1 301 Moved Permanently\\r\\nlocation: /p/" + path.slice(3) + "\\r\\n" + keep
        : ok;
      hold(socket, response, performance.now());
    }
  });
});
// A response leaves at the first turn of the loop at or after its due time, never before. A plain
// setTimeout(latencyMs) held it 5.4 ms on average (timers fire late by the loop's granularity),
// which the figure would have charged to the client; so the timer fires a millisecond early and
// setImmediate waits out the rest.
let held = 0, heldMs = 0;
function hold(socket, response, arrived) {
  const due = arrived + workerData.latencyMs;
  const send = () => {
    const now = performance.now();
    if (now < due) return void setImmediate(send);
    socket.write(response);
    held++;
    heldMs += now - arrived;
  };
  setTimeout(send, Math.max(0, workerData.latencyMs - 1));
}
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", (message) => {
  if (message === "count") {
    parentPort.postMessage(requests);
    requests = 0;
  } else if (message === "hold") {
    parentPort.postMessage(held === 0 ? 0 : heldMs / held);
    held = heldMs = 0;
  } else server.close(() => process.exit(0));
});
`;

/** A running bench origin. */
export interface BenchOrigin {
  port: number;
  /** Requests answered since the last call (or the start). */
  requests(): Promise<number>;
  /** The mean time a response was held, in ms, since the last call (or the start). */
  meanHoldMs(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the origin on a free loopback port.
 *
 * @example
 * ```ts
 * const origin = await startBenchOrigin(5);
 * // ... resolve http://bench.test:${origin.port}/r/1 through a resolver that answers 127.0.0.1
 * await origin.requests(); // 2: the redirect and its target
 * await origin.close();
 * ```
 */
export async function startBenchOrigin(latencyMs: number): Promise<BenchOrigin> {
  const worker = new Worker(SERVER, { eval: true, workerData: { latencyMs } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const ask = (message: string): Promise<number> =>
    new Promise((resolve) => {
      worker.once("message", resolve);
      worker.postMessage(message);
    });
  return {
    port,
    requests: () => ask("count"),
    meanHoldMs: () => ask("hold"),
    async close() {
      worker.postMessage("stop");
      await worker.terminate();
    },
  };
}
