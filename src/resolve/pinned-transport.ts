import { isIP, type LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import { buildConnector, Pool } from "undici";
import { toCanonError } from "./to-canon-error.js";
import type { Transport, TransportRequest, TransportResponse } from "./transport.js";

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
  /** Most pools kept open at once; the least recently used is closed beyond it. @default 256 */
  maxPools?: number;
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
  /** Connections (TCP, and TLS when https) opened so far, across every pool. */
  readonly socketsOpened: number;
  close(): Promise<void>;
}

// A lookup that can only answer with the addresses validated for this pool: whatever name the socket
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

function toHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * Creates the default {@link Transport}: every request goes through an undici `Pool` owned by this
 * transport for one (origin, validated address list, connect timeout), never the global dispatcher
 * and never an environment proxy. The pool's connector resolves the host name only to the validated
 * addresses, while TLS SNI and certificate verification use the host name; `rejectUnauthorized` is
 * always on and `ca` adds to Node's roots. Pools keep connections alive and are reused across hops
 * and URLs while the origin resolves to the same addresses. Every failure is a `CanonError` (see
 * {@link toCanonError}); the body iterator maps read errors the same way.
 *
 * Timeouts: `connectTimeoutMs` bounds TCP + TLS setup; `readTimeoutMs` bounds the wait for the
 * response head and every gap between body chunks; `signal` carries the total deadline. HEAD and GET
 * send no body, so the write phase is only the request head, covered by the read timeout that starts
 * once it is queued.
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
  const maxPools = options.maxPools ?? 256;
  const pools = new Map<string, Pool>();
  let socketsOpened = 0;
  let closed = false;

  function poolFor(request: TransportRequest): Pool {
    const origin = request.url.origin;
    const key = `${origin} ${request.addresses.join(",")} ${request.connectTimeoutMs}`;
    const existing = pools.get(key);
    if (existing !== undefined) {
      // Map order doubles as recency order for eviction.
      pools.delete(key);
      pools.set(key, existing);
      return existing;
    }
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
    const pool = new Pool(origin, {
      connect(connectOptions, callback) {
        // The servername is fixed to the URL's host: a Host header set by a caller must not move SNI
        // or the certificate check to another name.
        const pinned = { ...connectOptions, ...(servername === undefined ? {} : { servername }) };
        connector(pinned, (error, socket) => {
          if (error === null) socketsOpened++;
          (callback as (e: Error | null, s: typeof socket) => void)(error, socket);
        });
      },
    });
    pools.set(key, pool);
    if (pools.size > maxPools) {
      const [oldestKey, oldest] = pools.entries().next().value as [string, Pool];
      pools.delete(oldestKey);
      void oldest.close().catch(() => {});
    }
    return pool;
  }

  return {
    get socketsOpened() {
      return socketsOpened;
    },
    async request(request: TransportRequest): Promise<TransportResponse> {
      const href = request.url.href;
      if (closed) throw toCanonError(new Error("transport is closed"), href);
      if (request.addresses.length === 0 || request.addresses.some((a) => isIP(a) === 0)) {
        throw toCanonError(new Error("no validated addresses to connect to"), href);
      }
      if (request.signal.aborted) throw toCanonError(request.signal.reason, href, request.signal);
      let data: Awaited<ReturnType<Pool["request"]>>;
      try {
        data = await poolFor(request).request({
          path: `${request.url.pathname}${request.url.search}`,
          method: request.method,
          headers: { ...request.headers },
          signal: request.signal,
          // undici closes the connection after every HEAD unless told otherwise (undici#258);
          // every hop starts with HEAD, so without this no connection would ever be reused.
          reset: false,
          headersTimeout: request.readTimeoutMs,
          bodyTimeout: request.readTimeoutMs,
        });
      } catch (error) {
        throw toCanonError(error, href, request.signal);
      }
      const body = data.body;
      let disposed = false;
      return {
        status: data.statusCode,
        headers: toHeaders(data.headers),
        body: {
          async *[Symbol.asyncIterator]() {
            try {
              for await (const chunk of body) yield chunk as Uint8Array;
            } catch (error) {
              throw toCanonError(error, href, request.signal);
            }
          },
        },
        async dispose() {
          if (disposed) return;
          disposed = true;
          // Destroying, not draining: the hop loop stops reading at </head> or maxBodyBytes.
          if (!body.destroyed) {
            body.on("error", () => {});
            body.destroy();
          }
        },
      };
    },
    async close() {
      closed = true;
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((pool) => pool.close().catch(() => {})));
    },
  };
}
