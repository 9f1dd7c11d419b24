import type { CanonError } from "../errors/canon-error.js";
import { FetchError } from "../errors/fetch-error.js";
import { RedirectError } from "../errors/redirect-error.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { SecurityError } from "../errors/security-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import { UrlError } from "../errors/url-error.js";
import { followAbort } from "./abort-fanout.js";
import { type Cache, type CacheEntry, type PeekableCache, peekEntry } from "./cache.js";
import { CACHE_BYPASS_EVENT } from "./cache-bypass-event.js";
import { createCacheKeyer } from "./cache-key.js";
import { failureTtlMs, isDeterministicFailure, type ResolvedCachePolicy, statusOf } from "./cache-policy.js";
import { checkSignalArgument } from "./call-arguments.js";
import { createDeadline } from "./deadline.js";
import { type DecidingResponse, successTtlMs } from "./freshness.js";
import { toCanonError } from "./http/to-canon-error.js";
import { createInFlight, type SharedWork } from "./in-flight.js";
import { createKeyMemo } from "./key-memo.js";
import { createOpTimer } from "./op-timer.js";
import { type ResolveContext, resolveUrl } from "./resolve-url.js";
import type { Hop, Resolution } from "./types.js";

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
  /**
   * Whether resolving `input` now would join a resolution of its key already running (or being
   * stored) instead of starting one: resolveMany runs such an input beside its slots.
   */
  joins(input: string): boolean;
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

// Index loops and literals, not spread, map or slice: entries come back deep-frozen, and on V8 the
// array builtins and object spread leave their fast paths for frozen arrays and objects (a copy
// took three times as long, the largest cost of a memoryCache hit; bench/cache.ts).
function copyHops(chain: readonly Hop[]): Hop[] {
  const n = chain.length;
  const out = new Array<Hop>(n);
  for (let i = 0; i < n; i++) {
    const hop = chain[i] as Hop;
    out[i] = { url: hop.url, via: hop.via, method: hop.method, status: hop.status };
  }
  return out;
}

function copyStrings(list: readonly string[]): string[] {
  const n = list.length;
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = list[i] as string;
  return out;
}

/**
 * A caller's own copy of a resolution: nothing one caller changes reaches another or the store.
 * The fields of Resolution, each copied; a field a newer canonurl stored and this one does not
 * know is left out.
 */
export function copyFor(
  r: Resolution,
  input: string,
  cached: boolean,
  stale: boolean,
  durationMs: number,
): Resolution {
  return {
    url: r.url,
    original: input,
    source: r.source,
    chain: copyHops(r.chain),
    status: r.status,
    headers: { ...r.headers },
    ruleApplied: r.ruleApplied,
    paramsStripped: copyStrings(r.paramsStripped),
    verified: r.verified,
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
  // A store in this process answers at once (memoryCache, sqliteCache): its hits skip the promise
  // and the timer, which could not cut a synchronous call short anyway.
  const peek =
    typeof (cache as Partial<PeekableCache>)[peekEntry] === "function"
      ? (cache as PeekableCache)[peekEntry].bind(cache)
      : undefined;
  const inFlight = createInFlight<{ result: Resolution; cached: boolean; stale: boolean }>();
  const { logger } = ctx.options;
  let bypassUntil = 0;
  let failing = false;
  // When the current outage was first logged: only an operation begun after it can end it. A
  // lookup sent before the store went away may still answer after a later one failed (seen under
  // load when Redis restarts mid-batch); that says nothing about the store now.
  let failingSince = 0;
  function answered(startedAt: number): void {
    if (failing && startedAt > failingSince) failing = false;
  }
  const writes = new Set<Promise<void>>();
  const opTimer = createOpTimer(CACHE_OP_TIMEOUT_MS);
  // Counts settled writes: a lookup that began before a write of its key settled may have missed it.
  let generation = 0;
  // For keys being looked up: the generation at which a write of the key last settled. Only the
  // key's own writes count: with many resolutions in flight some other key's write settles during
  // almost every lookup, and taking that for this key's made every miss ask the store twice.
  const writtenAt = new Map<string, number>();
  const keys = createKeyMemo(keyer.keyOf);
  const keyOf = keys.keyOf;
  // Keys with a lookup running outside the in-flight table, and how many.
  const looking = new Map<string, number>();

  function failed(op: string, error: unknown): void {
    bypassUntil = performance.now() + CACHE_BYPASS_MS;
    if (failing) return;
    failing = true;
    failingSince = performance.now();
    try {
      logger?.debug(`cache ${op} failed; resolving without the cache until it answers again`, {
        event: CACHE_BYPASS_EVENT,
        error: String(error),
      });
    } catch {
      // A logger that throws must not turn a cache problem into a failed resolution.
    }
  }

  /**
   * Settles with the operation's value, or `fallback` when it rejects or outlasts the bound.
   * `now` is performance.now() at the call, when the caller has read it already (a hit reads the
   * clock once for its duration, the bypass and the bound).
   */
  function bounded<T>(op: string, run: () => Promise<T>, fallback: T, now = performance.now()): Promise<T> {
    if (now < bypassUntil) return Promise.resolve(fallback);
    let pending: Promise<T>;
    try {
      pending = run();
    } catch (error) {
      failed(op, error);
      return Promise.resolve(fallback);
    }
    return opTimer.bound(
      // Still followed after the bound passed: a late success ends the outage, a late failure is one.
      pending.then(
        (value) => {
          answered(now);
          return value;
        },
        (error: unknown) => {
          failed(op, error);
          return fallback;
        },
      ),
      () => {
        failed(op, new Error(`no answer within ${CACHE_OP_TIMEOUT_MS} ms`));
        return fallback;
      },
      now,
    );
  }

  function store(key: string, outcome: Stored, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return Promise.resolve();
    const now = Date.now();
    const write = bounded(
      "set",
      () => cache.set(key, { outcome, storedAt: now, freshUntil: now + ttlMs }),
      undefined,
    );
    // close() waits for it (flush), so a run that ends leaves what it learned in the store.
    writes.add(write);
    void write.then(() => {
      writes.delete(write);
      // Before the in-flight entry that kept this write is released (its then comes later).
      generation++;
      if (looking.has(key)) writtenAt.set(key, generation);
    });
    return write;
  }

  type Value = { result: Resolution; cached: boolean; stale: boolean };

  /** The lookup's entry, when it can be served or is stale; `undefined` for a miss or an unusable one. */
  function usable(found: unknown, key: string): CacheEntry | undefined {
    if (found === undefined) return undefined;
    if (isUsable(found)) return found;
    logger?.debug("cache entry unusable; ignored", { key });
    return undefined;
  }

  /**
   * The caller's resolution when `entry` is fresh: its own copy of a stored success, or the stored
   * failure thrown. `undefined` for a miss or a stale entry.
   */
  function fresh(entry: CacheEntry | undefined, input: string, started: number): Resolution | undefined {
    if (entry === undefined || Date.now() >= entry.freshUntil) return undefined;
    if (!entry.outcome.ok) throw errorFromStored(entry.outcome.error, input);
    return copyFor(entry.outcome.result, input, true, false, performance.now() - started);
  }

  /** A lookup answered at once (see {@link peekEntry}): a hit served, or the miss joined. */
  function peeked(
    look: (key: string) => CacheEntry | undefined,
    key: string,
    input: string,
    signal: AbortSignal | undefined,
    started: number,
  ): Promise<Resolution> {
    // Validated by the backend that read it (see peekEntry): not checked again here.
    let entry: CacheEntry | undefined;
    if (started >= bypassUntil) {
      try {
        entry = look(key);
        answered(started);
      } catch (error) {
        failed("get", error);
      }
    }
    try {
      const hit = fresh(entry, input, started);
      if (hit !== undefined) return Promise.resolve(hit);
    } catch (error) {
      return Promise.reject(error);
    }
    // Nothing ran between the lookup and here: the miss (or stale entry) is joined as it is.
    return join(key, input, signal, started, { entry });
  }

  /** What a lookup found, for the shared work: a fresh hit, or a miss to resolve (serving stale on error). */
  function decide(
    entry: CacheEntry | undefined,
    key: string,
    input: string,
    shared: SharedWork,
    started: number,
  ): Value | Promise<Value> {
    const now = Date.now();
    if (entry !== undefined && now < entry.freshUntil) {
      if (entry.outcome.ok) return { result: entry.outcome.result, cached: true, stale: false };
      throw errorFromStored(entry.outcome.error, input);
    }
    const staleResult =
      entry?.outcome.ok === true && now - entry.freshUntil <= policy.staleIfErrorMs
        ? entry.outcome.result
        : undefined;
    return resolveMissing(key, input, shared, started, staleResult);
  }

  function lookupAndResolve(key: string, input: string, shared: SharedWork): Promise<Value> {
    const started = performance.now();
    return bounded("get", () => cache.get(key), undefined, started).then((found) =>
      decide(usable(found, key), key, input, shared, started),
    );
  }

  async function resolveMissing(
    key: string,
    input: string,
    shared: SharedWork,
    started: number,
    staleResult: Resolution | undefined,
  ): Promise<Value> {
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

  function join(
    key: string,
    input: string,
    signal: AbortSignal | undefined,
    started: number,
    looked: { entry: CacheEntry | undefined } | undefined,
  ): Promise<Resolution> {
    return inFlight
      .run(
        key,
        signal,
        (shared) => {
          if (looked === undefined) return lookupAndResolve(key, input, shared);
          // A stored failure throws here, which the in-flight table turns into the shared rejection.
          const value = decide(looked.entry, key, input, shared, started);
          return value instanceof Promise ? value : Promise.resolve(value);
        },
        () => abortError(input),
      )
      .then(({ value, late }) => {
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
      });
  }

  /**
   * Ends the count of a lookup of `key` begun at generation `seen` (see `looking`); whether a
   * write of `key` settled meanwhile, which the lookup may have missed.
   */
  function lookedUp(key: string, seen: number): boolean {
    const missed = (writtenAt.get(key) ?? seen) > seen;
    const left = (looking.get(key) ?? 1) - 1;
    if (left === 0) {
      looking.delete(key);
      writtenAt.delete(key);
    } else looking.set(key, left);
    return missed;
  }

  /**
   * What `lookup` (which never rejects: `bounded`) finds and {@link lookedUp}'s answer, or the
   * caller's abort error as soon as its signal aborts (a hung store holds no caller). The lookup is
   * counted until it settles, either way.
   */
  function abortable(
    key: string,
    seen: number,
    lookup: Promise<CacheEntry | undefined>,
    signal: AbortSignal,
    input: string,
  ): Promise<[CacheEntry | undefined, boolean]> {
    return new Promise((resolve, reject) => {
      const unfollow = followAbort(signal, () => {
        unfollow();
        reject(abortError(input));
      });
      void lookup.then((found) => {
        unfollow();
        resolve([found, lookedUp(key, seen)]);
      });
    });
  }

  /** A lookup's continuation: a fresh hit served, else the shared work (see resolve). */
  function afterLookup(
    found: CacheEntry | undefined,
    missed: boolean,
    key: string,
    input: string,
    signal: AbortSignal | undefined,
    started: number,
  ): Resolution | Promise<Resolution> {
    const entry = usable(found, key);
    const hit = fresh(entry, input, started);
    if (hit !== undefined) return hit;
    // A miss (or stale): one network resolution per key, shared. If a write of this key settled
    // since the lookup began, the lookup may have missed it and its in-flight entry may be gone
    // already: the shared work looks again rather than fetch a second time.
    return join(key, input, signal, started, missed ? undefined : { entry });
  }

  function abortError(input: string): unknown {
    // The same error the hop loop gives a caller that aborts (one source of truth for it).
    const controller = new AbortController();
    controller.abort();
    const deadline = createDeadline(ctx.options.totalTimeoutMs, controller.signal);
    try {
      return deadline.toError(input);
    } finally {
      deadline.dispose();
    }
  }

  return {
    resolve(input, signal) {
      try {
        checkSignalArgument(signal);
      } catch (error) {
        return Promise.reject(error);
      }
      const key = keyOf(input);
      if (key === undefined) return resolveUrl(input, ctx, signal);
      if (signal?.aborted) return Promise.reject(abortError(input));
      const started = performance.now();
      // A resolution of this key is running (or being stored): join it, ask the store nothing.
      if (inFlight.joinable(key)) return join(key, input, signal, started, undefined);
      if (peek !== undefined) return peeked(peek, key, input, signal, started);
      // Otherwise look up first, outside the in-flight table: a hit is served from the lookup's
      // continuation, with no shared work, timer or AbortController created for it.
      const seen = generation;
      // Counted while it runs, so that a batch treats a duplicate arriving meanwhile as joining.
      looking.set(key, (looking.get(key) ?? 0) + 1);
      const lookup = bounded("get", () => cache.get(key), undefined, started);
      // `lookup` never rejects (bounded), so the count always ends; abortable() ends it itself, as
      // it settles early when the caller aborts.
      if (signal === undefined)
        return lookup.then((found) => afterLookup(found, lookedUp(key, seen), key, input, signal, started));
      return abortable(key, seen, lookup, signal, input).then(([found, missed]) =>
        afterLookup(found, missed, key, input, signal, started),
      );
    },
    joins(input) {
      const key = keyOf(input);
      return key !== undefined && (looking.has(key) || inFlight.joinable(key));
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
