// The Cache contract. It is owned by the resolver that calls it; the backends in src/cache/
// implement it, so src/resolve/ never imports src/cache/ and the two rooms form no circle.
import type { Resolution } from "./types.js";

/**
 * One stored outcome of a resolution. Every backend returns entries deep-frozen: copy before
 * changing (`{ ...entry.outcome.result, cached: true }`).
 *
 * @example
 * ```ts
 * const entry: CacheEntry = {
 *   outcome: { ok: false, error: { code: "http-status", message: "404 at https://example.com/x" } },
 *   storedAt: Date.now(),
 *   freshUntil: Date.now() + 3_600_000,
 * };
 * ```
 */
export interface CacheEntry {
  outcome: { ok: true; result: Resolution } | { ok: false; error: { code: string; message: string } };
  /** Epoch ms. */
  storedAt: number;
  /**
   * Epoch ms. The caller does not serve the entry after it (except stale-if-error); the stores keep
   * it `retainStaleMs` longer so that the caller can (see docs/cache.md).
   */
  freshUntil: number;
}

/**
 * A store of resolution outcomes: `memoryCache`, `sqliteCache` (embedded, persistent) and
 * `redisCache` (shared between workers and machines) implement it. Any method may reject (server
 * gone, file unreadable, cache closed); a caller treats a rejection as a miss and goes on.
 * `get` returns an entry whose `freshUntil` has passed until its retention ends: freshness is the
 * caller's decision.
 *
 * @example
 * ```ts
 * const cache: Cache = memoryCache();
 * await cache.set("key", entry);
 * const hit = await cache.get("key"); // the entry, deep-frozen, or undefined
 * await cache.close();
 * ```
 */
export interface Cache {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The method by which a backend whose store lives in this process (memoryCache; sqliteCache,
 * since better-sqlite3 is synchronous) answers a lookup at once, with the entry `get` would
 * resolve to (or throwing where `get` would reject): an entry the backend has already validated,
 * which the client serves without checking it again. The client serves such a hit without a
 * promise from the store, a timer bounding it or a lookup count: those were most of a memoryCache
 * hit's cost, and a store in the same thread cannot hang without hanging the caller anyway. A
 * symbol, so it is no part of the Cache a user implements; only canonurl's backends carry it.
 */
export const peekEntry: unique symbol = Symbol("canonurl.cache.peekEntry");

/** A {@link Cache} that can answer a lookup synchronously (see {@link peekEntry}). */
export interface PeekableCache extends Cache {
  [peekEntry](key: string): CacheEntry | undefined;
}
