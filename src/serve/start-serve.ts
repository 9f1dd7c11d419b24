import { createServer } from "node:http";
import { type AddressInfo, isIP } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createServeApp } from "./app.js";
import { isLoopbackBind, LOOPBACK_HOST_NAMES } from "./browser-guard.js";
import { createRequestGate } from "./request-gate.js";
import { resolveServeOptions, type ServeOptions } from "./serve-options.js";
import { createSharedClients } from "./shared-clients.js";

/**
 * Time an answer still has to reach the client after the request's deadline passed (a batch then
 * answers `timeout` for the inputs not done, which takes one write). A connection whose answer is
 * not out by then is destroyed: a client that stops reading loses its slot there (issue 23).
 */
export const WRITE_GRACE_MS = 1000;

/** How long SIGTERM's drain waits for requests in flight by default. */
export const DEFAULT_DRAIN_MS = 10_000;

/** A running service, from {@link startServe}. */
export interface RunningServe {
  /** `http://HOST:PORT`, with an IPv6 host in brackets. */
  readonly url: string;
  readonly host: string;
  /** The bound port (the chosen one when started on port 0). */
  readonly port: number;
  /**
   * Stops accepting connections, answers 503 to requests still arriving on open connections,
   * waits for the requests in flight to finish (at most `graceMs`, default 10 s), then closes
   * every connection and the resolve clients. Bounded: it settles within `graceMs` whatever the
   * clients do.
   */
  drain(graceMs?: number): Promise<void>;
}

/**
 * Starts the service on `host:port` (default `127.0.0.1:8787`; port 0 picks a free one) and
 * resolves once it listens.
 *
 * @example
 * ```ts
 * const running = await startServe({ port: 0 });
 * console.error(`listening on ${running.url}`);
 * process.once("SIGTERM", () => void running.drain());
 * ```
 */
export async function startServe(
  options: ServeOptions & { host?: string; port?: number } = {},
): Promise<RunningServe> {
  const { host = "127.0.0.1", port = 8787, ...rest } = options;
  const config = resolveServeOptions(rest);
  const gate = createRequestGate(config.maxInFlight);
  const clients = createSharedClients(config.client);
  // Bound to loopback, only the loopback names (and the bind address itself, say 127.0.0.2) are
  // legitimate Host headers; bound anywhere else, the names it is reached by are not known here.
  const allowedHosts =
    rest.allowedHosts !== undefined
      ? rest.allowedHosts
      : isLoopbackBind(host)
        ? [...LOOPBACK_HOST_NAMES, new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}/`).hostname]
        : null;
  const app = createServeApp({ ...rest, allowedHosts }, gate, clients);
  const listener = getRequestListener(app.fetch);
  const hardDeadlineMs = config.requestTimeoutMs + WRITE_GRACE_MS;
  const server = createServer((request, response) => {
    // The backstop of the request's deadline, below the app: whatever holds the answer (a client
    // that stopped reading, a body that trickles in), the connection goes at the deadline plus
    // the write grace, and with it the request's slot.
    const timer = setTimeout(() => {
      if (!response.writableFinished) request.socket.destroy();
    }, hardDeadlineMs);
    timer.unref();
    response.once("close", () => clearTimeout(timer));
    void listener(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let drained: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}`,
    host: address.address,
    port: address.port,
    drain(graceMs = DEFAULT_DRAIN_MS) {
      drained ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        });
        await Promise.race([gate.drain(), grace]);
        clearTimeout(timer);
        // What is left is idle keep-alive sockets (or requests past the grace period).
        server.closeAllConnections();
        await closed;
        await clients.close();
      })();
      return drained;
    },
  };
}
