import { LRUCache } from "lru-cache";
import { type Cache, type CacheEntry, type PeekableCache, peekEntry } from "./cache.js";
import {
  checkOptions,
  DEFAULT_RETAIN_STALE_MS,
  isIntegerIn,
  retentionMs,
  type StoreOptions,
} from "./cache-options.js";
import { decodeEntry, encodeEntry } from "./entry-codec.js";
import { storageKey } from "./storage-key.js";

/** Options of {@link memoryCache}. */
export interface MemoryCacheOptions extends StoreOptions {
  /** Most entries kept; the least recently used goes first. @default 10000 */
  maxEntries?: number;
  /**
   * Most bytes of entries kept, counted as two per character of an entry's JSON (a fair estimate
   * of the objects held). Bounds memory when entries are large (long redirect chains).
   * @default 67108864 (64 MiB)
   */
  maxBytes?: number;
}

/**
 * An in-process LRU cache (lru-cache). Lost on exit, not shared between processes; the fastest
 * backend. An entry goes through the same JSON encoding and validation as the persistent stores,
 * so it behaves exactly like them (no aliasing: a caller's later change to the object it stored is
 * not seen; what `get` returns is deep-frozen).
 *
 * @example
 * ```ts
 * const cache = memoryCache({ maxEntries: 1000 });
 * await cache.set("k", { outcome: { ok: false, error: { code: "timeout", message: "m" } }, storedAt: Date.now(), freshUntil: Date.now() + 60_000 });
 * (await cache.get("k"))?.outcome.ok; // false
 * ```
 */
export function memoryCache(options?: MemoryCacheOptions): Cache {
  checkOptions(
    "memoryCache",
    options,
    {
      maxEntries: isIntegerIn(1, 2 ** 30),
      maxBytes: isIntegerIn(1, Number.MAX_SAFE_INTEGER),
      retainStaleMs: isIntegerIn(0, Number.MAX_SAFE_INTEGER),
    },
    { maxEntries: "an integer ≥ 1", maxBytes: "an integer ≥ 1", retainStaleMs: "an integer ≥ 0" },
  );
  const retainStaleMs = options?.retainStaleMs ?? DEFAULT_RETAIN_STALE_MS;
  const lru = new LRUCache<string, CacheEntry>({
    max: options?.maxEntries ?? 10_000,
    maxSize: options?.maxBytes ?? 67_108_864,
  });
  let closed = false;
  const closedError = (): Promise<never> => Promise.reject(new Error("memoryCache: the cache is closed"));

  function peek(key: string): CacheEntry | undefined {
    if (closed) throw new Error("memoryCache: the cache is closed");
    // In-process keys are exact JS strings: only long keys need hashing (memory bound).
    return lru.get(storageKey(key, false));
  }

  const cache: PeekableCache = {
    get(key) {
      try {
        return Promise.resolve(peek(key));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    [peekEntry]: peek,
    set(key, entry) {
      if (closed) return closedError();
      try {
        const k = storageKey(key, false);
        const text = encodeEntry(entry);
        const ttl = retentionMs(entry, retainStaleMs, Date.now());
        if (ttl <= 0) lru.delete(k);
        else lru.set(k, decodeEntry(text) as CacheEntry, { ttl, size: text.length * 2 });
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    delete(key) {
      if (closed) return closedError();
      try {
        lru.delete(storageKey(key, false));
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    close() {
      closed = true;
      lru.clear();
      return Promise.resolve();
    },
  };
  return cache;
}
