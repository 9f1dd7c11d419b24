import { createRequire } from "node:module";
import { isIP, type LookupFunction } from "node:net";
import type { Duplex } from "node:stream";
import { rootCertificates } from "node:tls";
import type * as Undici from "undici";
import { PinnedExchange } from "./pinned-exchange.js";
import { toCanonError } from "./to-canon-error.js";
import type { Transport, TransportRequest, TransportResponse } from "./transport.js";

// Only the two parts of undici this transport uses, each from its own file: `import "undici"`
// loads its whole index (fetch, WebSocket, EventSource, mocks, caches: 110 modules), ~170 ms of
// CPU on Node 20 against ~65 ms for Client and its connector (19 modules), and every network-mode
// `canonurl` run and fleet worker paid it at start (measured 5 Dec 2026, `require` in a bare node).
// Dispatching, closing and destroying are Client's own methods; the index only adds the request()
// helpers to Dispatcher.prototype, which this transport never calls. undici has no exports map,
// so these paths are requirable; were a later undici to move them, the index serves the same.
const requireUndici = createRequire(import.meta.url);
function undiciPart<T>(path: string, name: "Client" | "buildConnector"): T {
  try {
    return requireUndici(path) as T;
  } catch {
    return (requireUndici("undici") as Record<string, unknown>)[name] as T;
  }
}
const Client = undiciPart<typeof Undici.Client>("undici/lib/dispatcher/client.js", "Client");
type Client = Undici.Client;
const buildConnector = undiciPart<typeof Undici.buildConnector>(
  "undici/lib/core/connect.js",
  "buildConnector",
);
type Connector = Undici.buildConnector.connector;

/**
 * Options of {@link createPinnedTransport}.
 *
 * @example
 * ```ts
 * const options: PinnedTransportOptions = { ca: readFileSync("corp-ca.pem", "utf8") };
 * ```
 */
export interface PinnedTransportOptions {
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots. Verification stays on. */
  ca?: string | string[];
  /** Most destinations (origin + address list) kept open; the least recently used is closed beyond it. @default 256 */
  maxDestinations?: number;
  /** Most concurrent connections to one destination; further requests queue. @default 16 */
  maxConnectionsPerDestination?: number;
}

/**
 * The default transport: undici with the connection pinned to the validated addresses.
 *
 * @example
 * ```ts
 * const transport = createPinnedTransport();
 * transport.socketsOpened; // 0
 * ```
 */
export interface PinnedTransport extends Transport {
  /** Connections (TCP, and TLS when https) opened so far, across every destination. */
  readonly socketsOpened: number;
  close(): Promise<void>;
}

// A lookup that can only answer with the addresses validated for this destination: whatever name the socket
// layer asks about, it never reaches DNS, so the address checked is the address dialled.
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    const family = typeof options === "object" && options !== null ? options.family : undefined;
    const wanted = family === 4 || family === 6 ? entries.filter((e) => e.family === family) : entries;
    const all = typeof options === "object" && options !== null && options.all === true;
    if (wanted.length === 0) {
      const error = Object.assign(new Error("no validated address for the requested family"), {
        code: "ENOTFOUND",
      });
      callback(error as NodeJS.ErrnoException, "", 0);
      return;
    }
    if (all) {
      (callback as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, wanted);
    } else {
      const first = wanted[0] as { address: string; family: number };
      callback(null, first.address, first.family);
    }
  };
}

// One pooled connection and the exchanges this transport has running on it. Counting them here,
// not reading undici's `client.stats` (a fresh object per read), keeps the pick cheap.
interface Connection {
  client: Client;
  inFlight: number;
  /** The socket the connector last handed this connection (null before the first connect). */
  socket: Duplex | null;
}

// One validated destination: its connector, pinned to the validated addresses, and its connections.
interface Destination {
  origin: string;
  connect: Connector;
  connections: Connection[];
}

// Graceful close, then destroy: a Client left inconsistent by a failed handshake never finishes
// close() (undici 7.30: after ERR_TLS_CERT_ALTNAME_INVALID its running count stays at 1).
function closeClient(client: Client): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      client.destroy().then(resolve, resolve);
    }, 1000);
    timer.unref();
    client.close().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        client.destroy().then(resolve, resolve);
      },
    );
  });
}

function closeDestination(destination: Destination): Promise<unknown> {
  return Promise.all(destination.connections.map((connection) => closeClient(connection.client)));
}

/**
 * Creates the default {@link Transport}: every request goes through connections owned by this
 * transport for one (origin, validated address list, connect timeout) — a small set of undici
 * `Client`s sharing one pinned connector — never the global dispatcher
 * and never an environment proxy. The connector resolves the host name only to the validated
 * addresses, while TLS SNI and certificate verification use the host name; `rejectUnauthorized` is
 * always on and `ca` adds to Node's roots. Connections are kept alive and reused across hops and URLs
 * while the origin resolves to the same addresses, HEAD included. Every failure is a `CanonError` (see
 * {@link toCanonError}); the body iterator maps read errors the same way.
 *
 * Timeouts: `connectTimeoutMs` bounds TCP + TLS setup; `writeTimeoutMs` bounds how long the request
 * head (HEAD and GET send no body) may wait in the socket for a peer that does not read;
 * `readTimeoutMs` bounds the wait for the response head and every gap between body chunks; `signal`
 * carries the total deadline.
 *
 * @example
 * ```ts
 * const transport = createPinnedTransport({ ca: testCa });
 * const res = await transport.request({ url, method: "GET", headers: {}, addresses: ["127.0.0.1"],
 *   signal, connectTimeoutMs: 8000, readTimeoutMs: 15000, writeTimeoutMs: 8000 });
 * await res.dispose();
 * ```
 */
export function createPinnedTransport(options: PinnedTransportOptions = {}): PinnedTransport {
  const extra = options.ca === undefined ? [] : Array.isArray(options.ca) ? options.ca : [options.ca];
  const ca = extra.length === 0 ? undefined : [...rootCertificates, ...extra];
  const maxDestinations = options.maxDestinations ?? 256;
  const maxConnections = options.maxConnectionsPerDestination ?? 16;
  const destinations = new Map<string, Destination>();
  let mostRecent: string | undefined;
  let socketsOpened = 0;
  let closed = false;

  function destinationFor(request: TransportRequest): Destination {
    const origin = request.url.origin;
    const { addresses } = request;
    const key = `${origin} ${addresses.length === 1 ? addresses[0] : addresses.join(",")} ${request.connectTimeoutMs}`;
    const existing = destinations.get(key);
    if (existing !== undefined) {
      // Map order doubles as recency order for eviction; a batch against one origin hits the most
      // recent entry every time, which needs no reordering.
      if (key !== mostRecent) {
        destinations.delete(key);
        destinations.set(key, existing);
        mostRecent = key;
      }
      return existing;
    }
    mostRecent = key;
    const hostname = request.url.hostname;
    const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
    // RFC 6066 §3: SNI carries a DNS name without the trailing dot, never an address.
    const servername = isIP(bare) !== 0 ? undefined : bare.replace(/\.$/, "");
    const connector = buildConnector({
      timeout: request.connectTimeoutMs,
      lookup: pinnedLookup(request.addresses),
      rejectUnauthorized: true,
      ...(ca === undefined ? {} : { ca }),
      ...(servername === undefined ? {} : { servername }),
    });
    const connect: Connector = (connectOptions, callback) => {
      // The servername is fixed to the URL's host: a Host header set by a caller must not move SNI or
      // the certificate check to another name.
      const pinned = { ...connectOptions, ...(servername === undefined ? {} : { servername }) };
      connector(pinned, (...args) => {
        if (args[0] === null) socketsOpened++;
        (callback as (...a: typeof args) => void)(...args);
      });
    };
    const destination: Destination = { origin, connect, connections: [] };
    destinations.set(key, destination);
    if (destinations.size > maxDestinations) {
      const [oldestKey, oldest] = destinations.entries().next().value as [string, Destination];
      destinations.delete(oldestKey);
      void closeDestination(oldest);
    }
    return destination;
  }

  // undici's Pool picks a connection by a "needs drain" flag that clears a macrotask after a response
  // completes, so a request issued right after reading a body opened a second socket (measured: 2 of
  // 5 sequential GETs). Choosing by our own count of running exchanges reuses the idle connection
  // every time; a busy destination gets new connections up to the cap, then the least loaded one.
  function connectionFor(destination: Destination): Connection {
    let best: Connection | undefined;
    for (const connection of destination.connections) {
      if (connection.inFlight === 0) return connection;
      if (best === undefined || connection.inFlight < best.inFlight) best = connection;
    }
    if (best !== undefined && destination.connections.length >= maxConnections) return best;
    // The connection keeps its socket, so an exchange can see a request head still queued on it.
    // (undici connects on the first dispatch, after `connection` below exists.)
    const connect: Connector = (connectOptions, callback) => {
      destination.connect(connectOptions, (...args) => {
        if (args[0] === null) connection.socket = args[1];
        (callback as (...a: typeof args) => void)(...args);
      });
    };
    const client = new Client(destination.origin, { connect, pipelining: 1 });
    const connection: Connection = { client, inFlight: 0, socket: null };
    destination.connections.push(connection);
    return connection;
  }

  // No response: the connection failed, timed out or was aborted. Retire it rather than trust its
  // state for the next request (see closeClient); exchanges already queued on it finish.
  function retire(destination: Destination, connection: Connection): void {
    const index = destination.connections.indexOf(connection);
    if (index === -1) return;
    destination.connections.splice(index, 1);
    void closeClient(connection.client);
  }

  // One exchange on the least busy connection of the request's destination; its head promise is the
  // response.
  function dispatchExchange(request: TransportRequest, href: string): Promise<TransportResponse> {
    const destination = destinationFor(request);
    const connection = connectionFor(destination);
    connection.inFlight++;
    const exchange: PinnedExchange = new PinnedExchange(
      href,
      request.signal,
      () => {
        connection.inFlight--;
        if (exchange.failedBeforeResponse) retire(destination, connection);
      },
      { socketOf: connection, writeTimeoutMs: request.writeTimeoutMs },
    );
    connection.client.dispatch(
      {
        origin: destination.origin,
        path: `${request.url.pathname}${request.url.search}`,
        method: request.method,
        headers: request.headers as Record<string, string>,
        // undici closes the connection after every HEAD unless the request says otherwise
        // (client-h1.js, undici#258, against servers that send a body anyway). Every hop starts with
        // HEAD, so without this no connection would be reused; a server that does send a HEAD body
        // only breaks its own next response on a connection already pinned to it.
        reset: false,
        headersTimeout: request.readTimeoutMs,
        bodyTimeout: request.readTimeoutMs,
      },
      exchange,
    );
    return exchange.head;
  }

  return {
    get socketsOpened() {
      return socketsOpened;
    },
    // Not `async`: the exchange's own head promise is returned as it is, not wrapped in another.
    request(request: TransportRequest): Promise<TransportResponse> {
      const href = request.url.href;
      if (closed) return Promise.reject(toCanonError(new Error("transport is closed"), href));
      if (request.addresses.length === 0 || request.addresses.some((a) => isIP(a) === 0)) {
        return Promise.reject(toCanonError(new Error("no validated addresses to connect to"), href));
      }
      if (request.signal.aborted) {
        return Promise.reject(toCanonError(request.signal.reason, href, request.signal));
      }
      try {
        return dispatchExchange(request, href);
      } catch (error) {
        return Promise.reject(toCanonError(error, href));
      }
    },
    async close() {
      closed = true;
      const all = [...destinations.values()];
      destinations.clear();
      await Promise.all(all.map(closeDestination));
    },
  };
}
