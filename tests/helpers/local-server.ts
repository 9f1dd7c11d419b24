import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";

/** Handles one request of a {@link LocalServer}. */
export type LocalHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** A server a test started on a loopback address, with what it saw. */
export interface LocalServer {
  /** The address it listens on, e.g. `127.0.0.1`. */
  readonly host: string;
  /** The port the system chose (listening on port 0). */
  readonly port: number;
  /** TCP connections accepted so far (TLS or not, whether or not a request followed). */
  readonly connections: number;
  /** HTTP requests received so far. */
  readonly requests: number;
  /** Request URLs (path and query) in arrival order. */
  readonly paths: readonly string[];
  /** `http://name:port` (or https) for a test host name that the injected resolver maps here. */
  origin(hostname: string): string;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

/** Options of {@link startLocalServer}. */
export interface LocalServerOptions {
  /** Default: answers 200 `ok` as text/plain. */
  handler?: LocalHandler;
  /** Serve HTTPS with this key and certificate. */
  tls?: { key: string; cert: string };
  /** A loopback address only. Default `127.0.0.1`. */
  host?: string;
}

const defaultHandler: LocalHandler = (_request, response) => {
  response.writeHead(200, { "content-type": "text/plain" });
  response.end("ok");
};

/**
 * Starts an HTTP or HTTPS server on a loopback address, port 0, counting connections and requests.
 * Refuses any non-loopback `host`, so a test cannot listen (or be dialled) anywhere else by mistake.
 *
 * @example
 * ```ts
 * const server = await startLocalServer({ handler: (req, res) => res.end("hi") });
 * try { ... server.origin("a.test") ... } finally { await server.close(); }
 * ```
 */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const host = options.host ?? "127.0.0.1";
  if (!/^127\.\d+\.\d+\.\d+$/.test(host) && host !== "::1") {
    throw new Error(`startLocalServer listens on loopback only, not ${host}`);
  }
  const handler = options.handler ?? defaultHandler;
  let connections = 0;
  let requests = 0;
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  const onRequest: LocalHandler = (request, response) => {
    requests++;
    paths.push(request.url ?? "");
    handler(request, response);
  };
  const server =
    options.tls === undefined
      ? createHttpServer(onRequest)
      : createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, onRequest);
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // A failed TLS handshake is an expected outcome in tests; keep it off stderr.
  server.on("tlsClientError", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const scheme = options.tls === undefined ? "http" : "https";
  return {
    host,
    port,
    get connections() {
      return connections;
    },
    get requests() {
      return requests;
    },
    paths,
    origin: (hostname: string) => `${scheme}://${hostname}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
