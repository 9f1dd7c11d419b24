// A fleet worker process whose transport kills the process (an uncaught exception, as a crash in
// native code or a bug in an event handler would) once a response from `poison.test` arrives: a
// poison input that no try/catch around its resolution can catch. Spawned by fleet-poison.test.ts
// with REDIS URL, QUEUE and the origin's PORT as arguments; says "ready" on stderr.
import { createFleet } from "../../src/fleet/index.js";
import { createPinnedTransport } from "../../src/resolve/lazy-client.js";

const [redis, queue, port] = process.argv.slice(2) as [string, string, string];
const inner = createPinnedTransport();
const fleet = createFleet({
  redis,
  queue,
  // Not shorter: on a loaded machine a late lock renewal would pass for a death and run the
  // poison twice at once.
  stalledIntervalMs: 2_000,
  client: {
    resolver: async (host) => (host.endsWith(".test") ? ["127.0.0.1"] : []),
    allowedNetworks: ["127.0.0.1/32"],
    allowedPorts: [Number(port)],
    transport: {
      async request(request) {
        const response = await inner.request(request);
        if (request.url.hostname === "poison.test") {
          setImmediate(() => {
            throw new Error("poison: this input crashes the worker process");
          });
          return new Promise(() => {});
        }
        return response;
      },
      close: () => inner.close(),
    },
  },
});
const stop = new AbortController();
process.once("SIGTERM", () => stop.abort());
const working = fleet.work({ concurrency: 4, signal: stop.signal });
process.stderr.write("ready\n");
await working;
await fleet.close();
