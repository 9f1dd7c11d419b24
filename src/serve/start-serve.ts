import type { Server } from "node:http";
import { type AddressInfo, isIP } from "node:net";
import { serve } from "@hono/node-server";
import { createServeApp } from "./app.js";
import { isLoopbackBind, LOOPBACK_HOST_NAMES } from "./browser-guard.js";
import { createRequestGate } from "./request-gate.js";
import { resolveServeOptions, type ServeOptions } from "./serve-options.js";

/** A running service, from {@link startServe}. */
export interface RunningServe {
  /** `http://HOST:PORT`, with an IPv6 host in brackets. */
  readonly url: string;
  readonly host: string;
  /** The bound port (the chosen one when started on port 0). */
  readonly port: number;
  /**
   * Stops accepting connections, answers 503 to requests still arriving on open connections,
   * waits for the requests in flight to finish (at most `graceMs`), then closes every connection.
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
  const gate = createRequestGate(resolveServeOptions(rest).maxInFlight);
  // Bound to loopback, only the loopback names (and the bind address itself, say 127.0.0.2) are
  // legitimate Host headers; bound anywhere else, the names it is reached by are not known here.
  const allowedHosts =
    rest.allowedHosts !== undefined
      ? rest.allowedHosts
      : isLoopbackBind(host)
        ? [...LOOPBACK_HOST_NAMES, new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}/`).hostname]
        : null;
  const app = createServeApp({ ...rest, allowedHosts }, gate);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s as Server)) as Server;
    s.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let drained: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}`,
    host: address.address,
    port: address.port,
    drain(graceMs = 30_000) {
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
      })();
      return drained;
    },
  };
}
