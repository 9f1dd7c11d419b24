import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import { type Client, createClient } from "../resolve/client.js";
import { resolveClientOptions } from "../resolve/client-options.js";
import { limitHostConcurrency } from "../resolve/host-limiter.js";
import { createPinnedTransport } from "../resolve/http/pinned-transport.js";
import type { ClientOptions } from "../resolve/types.js";

/** The resolve clients of one service: see {@link createSharedClients}. */
export interface SharedClients {
  /**
   * The client for a request's normalize options; `release` when the request is done with it
   * (idempotent). Requests with the same options get the same client.
   */
  acquire(given: NormalizeOptions | undefined): { client: Client; release(): void };
  /** Closes every client and the shared connection pool. */
  close(): Promise<void>;
}

// Distinct option sets that keep a client of their own. Past it, a request gets a client for
// itself (still on the shared pool and host limit, and the shared cache), closed when it is done:
// a client cannot grow the service's memory by sending ever new options.
const MAX_KEPT = 32;

/**
 * One service, one resolver (issue 23): every POST /v1/resolve shares one connection pool and one
 * per-host limit (`hostConcurrency` counts requests in flight to a host across the whole service),
 * and requests with the same normalize options (most send none) share one client, so one
 * in-flight table and one cache: the same URL asked by ten requests at once is fetched once.
 * Before, each request built its own client: 20 requests put 20 requests in flight at one host
 * under `--host-concurrency 2`, and the same URL in 10 requests cost 10 fetches.
 *
 * @example
 * ```ts
 * const clients = createSharedClients({ hostConcurrency: 2 });
 * const { client, release } = clients.acquire(undefined);
 * try { await client.resolve("http://example.com/"); } finally { release(); }
 * ```
 */
export function createSharedClients(base: ClientOptions): SharedClients {
  const resolved = resolveClientOptions(base);
  // A transport the caller injected is theirs (and already one); ours is one pool for every client.
  const pool = resolved.transport === null ? createPinnedTransport({ ca: [...resolved.ca] }) : null;
  const transport = limitHostConcurrency(
    resolved.transport ?? (pool as NonNullable<typeof pool>),
    resolved.hostConcurrency,
  );
  const kept = new Map<string, Client>();
  const transient = new Set<Client>();
  const build = (given: NormalizeOptions | undefined): Client =>
    // The instance's network policy wins: only normalize options come from the request.
    createClient({ ...given, ...base, transport });

  return {
    acquire(given) {
      const key = given === undefined ? "" : JSON.stringify(given);
      let client = kept.get(key);
      if (client === undefined && kept.size < MAX_KEPT) {
        client = build(given);
        kept.set(key, client);
      }
      if (client !== undefined) return { client, release: () => undefined };
      const own = build(given);
      transient.add(own);
      let released = false;
      return {
        client: own,
        release() {
          if (released) return;
          released = true;
          transient.delete(own);
          void own.close();
        },
      };
    },
    async close() {
      await Promise.all([...kept.values(), ...transient].map((c) => c.close()));
      kept.clear();
      transient.clear();
      await pool?.close?.();
    },
  };
}
