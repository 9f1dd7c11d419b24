import { FetchError } from "../errors/fetch-error.js";
import { createCachedResolver } from "./cached-resolve.js";
import { checkUrlArgument } from "./call-arguments.js";
import { type ResolvedClientOptions, resolveClientOptions } from "./client-options.js";
import { DEFAULT_CONCURRENCY } from "./concurrency-option.js";
import { defaultResolver } from "./guard/default-resolver.js";
import type { ResolvedNetPolicy } from "./guard/destination.js";
import { limitHostConcurrency } from "./host-limiter.js";
import { createPinnedTransport } from "./http/pinned-transport.js";
import { toCanonError } from "./http/to-canon-error.js";
import type { Transport } from "./http/transport.js";
import { resolveMany } from "./resolve-many.js";
import { type ResolveContext, resolveUrl } from "./resolve-url.js";
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
  return createResolvedClient(resolveClientOptions(options));
}

/**
 * The engine half of {@link createClient}, over options `resolveClientOptions` already validated:
 * the lazy shell (lazy-client.ts) validates at construction and calls this on first use.
 *
 * @example
 * ```ts
 * const client = createResolvedClient(resolveClientOptions({ maxHops: 5 }));
 * ```
 */
export function createResolvedClient(resolved: ResolvedClientOptions): Client {
  // An injected transport belongs to the caller, who closes it; ours is closed by close().
  const owned: Transport | null =
    resolved.transport === null ? createPinnedTransport({ ca: [...resolved.ca] }) : null;
  const transport = limitHostConcurrency(
    resolved.transport ?? (owned as Transport),
    resolved.hostConcurrency,
  );
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

  const joins = (url: string): boolean => closed === null && cached !== null && cached.joins(url);

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
      // resolveMany checks every argument (TypeError at the call) and every element (an Outcome).
      return resolveMany(
        urls,
        // With a cache, a duplicate of a resolution in flight joins it beside the slots.
        cached === null
          ? { resolveOne, toError: toCanonError }
          : { resolveOne, toError: toCanonError, joins },
        { concurrency: init?.concurrency, signal: init?.signal, defaultConcurrency: DEFAULT_CONCURRENCY },
      );
    },
    async invalidate(url: string) {
      checkUrlArgument(url);
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
