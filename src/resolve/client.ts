import { FetchError } from "../errors/fetch-error.js";
import { createCachedResolver } from "./cached-resolve.js";
import { type ResolvedClientOptions, resolveClientOptions } from "./client-options.js";
import { defaultResolver } from "./default-resolver.js";
import type { ResolvedNetPolicy } from "./destination.js";
import { createPinnedTransport } from "./pinned-transport.js";
import { resolveMany } from "./resolve-many.js";
import { type ResolveContext, resolveUrl } from "./resolve-url.js";
import { toCanonError } from "./to-canon-error.js";
import type { Transport } from "./transport.js";
import type { ClientOptions, Outcome, Resolution } from "./types.js";

/**
 * A resolver with validated, frozen options and its own connection pool (keep-alive per validated
 * origin and address). Safe to share; `close()` releases the pool.
 *
 * @example
 * ```ts
 * const client = createClient({ maxHops: 5 });
 * try { console.log(await client.canonicalize("http://example.com/a")); } finally { await client.close(); }
 * ```
 */
export interface Client {
  readonly options: Readonly<ClientOptions>;
  canonicalize(url: string, init?: { signal?: AbortSignal }): Promise<string>;
  resolve(url: string, init?: { signal?: AbortSignal }): Promise<Resolution>;
  resolveMany(
    urls: Iterable<string> | AsyncIterable<string>,
    init?: { concurrency?: number; signal?: AbortSignal },
  ): AsyncIterable<Outcome>;
  /**
   * Forgets what the cache holds for `url` (under this client's options), so the next resolution
   * goes to the network. Resolves at once without a cache; rejects when the cache does.
   */
  invalidate(url: string): Promise<void>;
  close(): Promise<void>;
}

function netPolicyOf(options: ResolvedClientOptions): ResolvedNetPolicy {
  return {
    allowedPorts: options.allowedPorts,
    allowedNetworks: options.allowedNetworks,
    allowPrivateNetworks: options.allowPrivateNetworks,
    resolver: options.resolver ?? defaultResolver,
  };
}

const DEFAULT_CONCURRENCY = 8;

/**
 * Creates a {@link Client}. Every option is validated here (an unknown key or a bad value throws a
 * `TypeError` naming it) and frozen, so one client can be shared by a whole program.
 *
 * @example
 * ```ts
 * const client = createClient({ totalTimeoutMs: 10_000, canonicalLinks: "same-site" });
 * const { url, chain } = await client.resolve("http://example.com/");
 * ```
 */
export function createClient(options?: ClientOptions): Client {
  const resolved = resolveClientOptions(options);
  // An injected transport belongs to the caller, who closes it; ours is closed by close().
  const owned: Transport | null =
    resolved.transport === null ? createPinnedTransport({ ca: [...resolved.ca] }) : null;
  const transport = resolved.transport ?? (owned as Transport);
  const ctx: ResolveContext = { options: resolved, transport, policy: netPolicyOf(resolved) };
  let closed: Promise<void> | null = null;
  // Without a cache the hop loop is called directly: no key, no lookup, nothing shared.
  const cached =
    resolved.cache === null ? null : createCachedResolver(ctx, resolved.cache, resolved.cachePolicy);

  const resolveOne = (url: string, signal?: AbortSignal): Promise<Resolution> => {
    if (closed !== null) {
      return Promise.reject(new FetchError("connection-failed", `client is closed: ${url}`, { url }));
    }
    return cached === null ? resolveUrl(url, ctx, signal) : cached.resolve(url, signal);
  };

  return Object.freeze({
    options: resolved.given,
    resolve(url: string, init?: { signal?: AbortSignal }) {
      return resolveOne(url, init?.signal);
    },
    async canonicalize(url: string, init?: { signal?: AbortSignal }) {
      return (await resolveOne(url, init?.signal)).url;
    },
    resolveMany(
      urls: Iterable<string> | AsyncIterable<string>,
      init?: { concurrency?: number; signal?: AbortSignal },
    ) {
      const concurrency = init?.concurrency ?? DEFAULT_CONCURRENCY;
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 10_000) {
        throw new TypeError(
          `canonurl: option "concurrency" must be an integer from 1 to 10000, got ${concurrency}`,
        );
      }
      return resolveMany(urls, resolveOne, { concurrency, signal: init?.signal }, toCanonError);
    },
    async invalidate(url: string) {
      if (typeof url !== "string") throw new TypeError(`canonurl: url must be a string, got ${typeof url}`);
      await cached?.invalidate(url);
    },
    close() {
      // Writes already started reach the cache first (each bounded), so a run that ends with
      // close() leaves what it learned behind. The cache itself is the caller's to close.
      closed ??= (async () => {
        await cached?.flush();
        await owned?.close?.();
      })();
      return closed;
    },
  });
}
