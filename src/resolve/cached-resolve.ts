import type { CanonError } from "../errors/canon-error.js";
import { FetchError } from "../errors/fetch-error.js";
import { RedirectError } from "../errors/redirect-error.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { SecurityError } from "../errors/security-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import { UrlError } from "../errors/url-error.js";
import type { Cache, CacheEntry } from "./cache.js";
import { createCacheKeyer } from "./cache-key.js";
import { failureTtlMs, isDeterministicFailure, type ResolvedCachePolicy, statusOf } from "./cache-policy.js";
import { checkSignalArgument } from "./call-arguments.js";
import { createDeadline } from "./deadline.js";
import { type DecidingResponse, successTtlMs } from "./freshness.js";
import { toCanonError } from "./http/to-canon-error.js";
import { createInFlight, type SharedWork } from "./in-flight.js";
import { type ResolveContext, resolveUrl } from "./resolve-url.js";
import type { Resolution } from "./types.js";

/**
 * Longest a cache operation may take before the resolution goes on without it. A cache is there to
 * save a network round trip; one that is slower than that is not helping. Backends bound
 * themselves too (redisCache: 1 s); this bounds any Cache.
 */
export const CACHE_OP_TIMEOUT_MS = 1_000;
/** After a cache operation failed, the cache is left alone this long: a store that is down costs nothing. */
export const CACHE_BYPASS_MS = 1_000;

/** A client's resolve and invalidate when it has a cache. */
export interface CachedResolver {
  resolve(input: string, signal: AbortSignal | undefined): Promise<Resolution>;
  invalidate(url: string): Promise<void>;
  /** Settles once every cache write already started has settled (each is bounded). */
  flush(): Promise<void>;
}

type Stored = CacheEntry["outcome"];

// The entry a custom Cache returned, checked just enough that serving it cannot throw: the
// backends shipped with canonurl validate everything they read; a Cache of the user's may not.
function isUsable(entry: unknown): entry is CacheEntry {
  if (typeof entry !== "object" || entry === null) return false;
  const { outcome, freshUntil } = entry as Partial<CacheEntry>;
  if (typeof freshUntil !== "number" || typeof outcome !== "object" || outcome === null) return false;
  if (outcome.ok === true) {
    const r = outcome.result as Partial<Resolution> | undefined;
    return (
      typeof r === "object" &&
      r !== null &&
      typeof r.url === "string" &&
      Array.isArray(r.chain) &&
      typeof r.headers === "object" &&
      r.headers !== null &&
      Array.isArray(r.paramsStripped)
    );
  }
  return (
    outcome.ok === false &&
    typeof outcome.error?.code === "string" &&
    typeof outcome.error.message === "string"
  );
}

/** The CanonError a stored failure stands for, of the class its code belongs to. */
function errorFromStored(error: { code: string; message: string }, url: string): CanonError {
  const { code, message } = error;
  switch (code) {
    case "invalid-url":
    case "unsupported-scheme":
      return new UrlError(code, message, { url });
    case "blocked-address":
    case "blocked-port":
    case "userinfo":
    case "scheme-downgrade":
      return new SecurityError(code, message, { url });
    case "redirect-loop":
    case "too-many-hops":
    case "invalid-location":
      return new RedirectError(code, message, { url });
    case "timeout":
      return new TimeoutError(code, message, { url });
    case "response-too-large":
      return new ResponseTooLargeError(code, message, { url });
    case "http-status":
      return new FetchError(code, message, { url, status: statusOf(error) });
    case "tls":
      return new FetchError(code, message, { url });
    default:
      return new FetchError("connection-failed", message, { url });
  }
}

/** A caller's own copy of a resolution: nothing one caller changes reaches another or the store. */
function copyFor(
  r: Resolution,
  input: string,
  cached: boolean,
  stale: boolean,
  durationMs: number,
): Resolution {
  return {
    ...r,
    original: input,
    chain: r.chain.map((hop) => ({ ...hop })),
    headers: { ...r.headers },
    paramsStripped: [...r.paramsStripped],
    durationMs,
    cached,
    stale,
  };
}

/**
 * Puts a cache in front of the hop loop: keys from {@link createCacheKeyer}, lifetimes from the
 * deciding responses' HTTP freshness clamped by the policy, negative entries for deterministic
 * failures, stale-if-error, and one network resolution per key at a time. The cache can only
 * make a resolution faster: a failing or slow cache is bypassed (each operation bounded by
 * {@link CACHE_OP_TIMEOUT_MS}, then left alone for {@link CACHE_BYPASS_MS}) and the logger says so
 * once per outage; the time spent waiting on it comes out of the resolution's total timeout.
 *
 * @example
 * ```ts
 * const cached = createCachedResolver(ctx, memoryCache(), resolveCachePolicy(undefined));
 * (await cached.resolve("http://bit.test/x", undefined)).cached; // false, then true
 * ```
 */
export function createCachedResolver(
  ctx: ResolveContext,
  cache: Cache,
  policy: ResolvedCachePolicy,
): CachedResolver {
  const keyer = createCacheKeyer(ctx.options);
  const inFlight = createInFlight<{ result: Resolution; cached: boolean; stale: boolean }>();
  const { logger } = ctx.options;
  let bypassUntil = 0;
  let failing = false;
  const writes = new Set<Promise<void>>();

  function failed(op: string, error: unknown): void {
    bypassUntil = Date.now() + CACHE_BYPASS_MS;
    if (failing) return;
    failing = true;
    try {
      logger?.debug(`cache ${op} failed; resolving without the cache until it answers again`, {
        error: String(error),
      });
    } catch {
      // A logger that throws must not turn a cache problem into a failed resolution.
    }
  }

  /** Settles with the operation's value, or `fallback` when it rejects or outlasts the bound. */
  function bounded<T>(op: string, run: () => Promise<T>, fallback: T): Promise<T> {
    if (Date.now() < bypassUntil) return Promise.resolve(fallback);
    let timer: NodeJS.Timeout | undefined;
    let pending: Promise<T>;
    try {
      pending = run();
    } catch (error) {
      failed(op, error);
      return Promise.resolve(fallback);
    }
    const timeout = new Promise<T>((resolve) => {
      timer = setTimeout(() => {
        failed(op, new Error(`no answer within ${CACHE_OP_TIMEOUT_MS} ms`));
        resolve(fallback);
      }, CACHE_OP_TIMEOUT_MS);
      timer.unref?.();
    });
    const done = pending.then(
      (value) => {
        failing = false;
        return value;
      },
      (error: unknown) => {
        failed(op, error);
        return fallback;
      },
    );
    return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
  }

  function store(key: string, outcome: Stored, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return Promise.resolve();
    const now = Date.now();
    return bounded(
      "set",
      () => cache.set(key, { outcome, storedAt: now, freshUntil: now + ttlMs }),
      undefined,
    );
  }

  async function lookupAndResolve(
    key: string,
    input: string,
    shared: SharedWork,
  ): Promise<{ result: Resolution; cached: boolean; stale: boolean }> {
    const started = performance.now();
    const found = await bounded("get", () => cache.get(key), undefined);
    const entry = isUsable(found) ? found : undefined;
    if (found !== undefined && entry === undefined) logger?.debug("cache entry unusable; ignored", { key });
    const now = Date.now();
    if (entry !== undefined && now < entry.freshUntil) {
      if (entry.outcome.ok) return { result: entry.outcome.result, cached: true, stale: false };
      throw errorFromStored(entry.outcome.error, input);
    }
    const staleResult =
      entry?.outcome.ok === true && now - entry.freshUntil <= policy.staleIfErrorMs
        ? entry.outcome.result
        : undefined;
    // The wait on the cache comes out of the total timeout: the resolution ends when it would have.
    const waited = Math.floor(performance.now() - started);
    const runCtx =
      waited < 1
        ? ctx
        : {
            ...ctx,
            options: { ...ctx.options, totalTimeoutMs: Math.max(1, ctx.options.totalTimeoutMs - waited) },
          };
    const responses: DecidingResponse[] = [];
    const signal = shared.signal();
    let result: Resolution;
    try {
      result = await resolveUrl(input, runCtx, signal, responses);
    } catch (caught) {
      const error = toCanonError(caught, input);
      // Every caller gave up: nothing was learned about the URL.
      if (signal.aborted) throw error;
      if (staleResult !== undefined && !isDeterministicFailure(error)) {
        logger?.debug("serving a stale resolution after a transient failure", { key, code: error.code });
        return { result: staleResult, cached: true, stale: true };
      }
      shared.keep(
        store(
          key,
          { ok: false, error: { code: error.code, message: error.message } },
          failureTtlMs(error, policy),
        ),
      );
      throw error;
    }
    shared.keep(store(key, { ok: true, result }, successTtlMs(responses, ctx.options.headers, policy)));
    return { result, cached: false, stale: false };
  }

  function abortErrorFor(input: string): (reason: unknown) => unknown {
    return () => {
      // The same error the hop loop gives a caller that aborts (one source of truth for it).
      const controller = new AbortController();
      controller.abort();
      const deadline = createDeadline(ctx.options.totalTimeoutMs, controller.signal);
      try {
        return deadline.toError(input);
      } finally {
        deadline.dispose();
      }
    };
  }

  return {
    async resolve(input, signal) {
      checkSignalArgument(signal);
      const key = keyer.keyOf(input);
      if (key === undefined) return resolveUrl(input, ctx, signal);
      const started = performance.now();
      const { value, late } = await inFlight.run(
        key,
        signal,
        (shared) => lookupAndResolve(key, input, shared),
        abortErrorFor(input),
      );
      // A caller that asks after the shared resolution finished (its result still being stored)
      // is served what the client already knew: a cache hit in all but the store it came from.
      const cached = value.cached || late;
      return copyFor(
        value.result,
        input,
        cached,
        value.stale,
        cached ? performance.now() - started : value.result.durationMs,
      );
    },
    async invalidate(url) {
      const key = keyer.keyOf(url);
      if (key !== undefined) await cache.delete(key);
    },
    async flush() {
      while (writes.size > 0) await Promise.all(writes);
    },
  };
}
