import { createOpTimer } from "../resolve/op-timer.js";
import type { Cache, CacheEntry } from "./cache.js";
import {
  checkOptions,
  DEFAULT_RETAIN_STALE_MS,
  isIntegerIn,
  retentionMs,
  type StoreOptions,
} from "./cache-options.js";
import { decodeEntry, encodeEntry } from "./entry-codec.js";
import { loadOptional } from "./load-optional.js";
import { storageKey } from "./storage-key.js";

/** Options of {@link redisCache}. */
export interface RedisCacheOptions extends StoreOptions {
  /** Put before every key, so one Redis can hold several caches or other data. @default "canonurl:" */
  prefix?: string;
  /**
   * Longest an operation may take, connecting included. node-redis's own command timeout covers
   * only the wait to be sent, not the reply, so a hung server (SIGSTOP, a full network buffer)
   * would otherwise hold an operation forever.
   * @default 1000
   */
  timeoutMs?: number;
}

/** The part of a node-redis v5 client this backend uses. */
interface RedisClient {
  readonly isReady: boolean;
  on(event: "error" | "ready", listener: (error?: unknown) => void): unknown;
  connect(): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { expiration: { type: "PX"; value: number } }): Promise<unknown>;
  del(key: string): Promise<number>;
  close(): Promise<void>;
  destroy(): void;
}

type CreateClient = (options: object) => RedisClient;

/** After an operation timed out, operations fail at once for this long before a new connection is tried. */
const BACKOFF_AFTER_TIMEOUT_MS = 1_000;

/**
 * A cache in Redis (node-redis v5), shared by every worker and machine that points at the same
 * server and prefix. Values are JSON strings with a format version; each key expires (`PX`)
 * `retainStaleMs` after the entry's `freshUntil`, so Redis drops old entries itself.
 *
 * The client loads when this is called and connects on the first operation. Operations never
 * queue while Redis is away: they reject at once while it is known to be down (node-redis
 * reconnects in the background, every 50 ms growing to 1 s, and the cache works again as soon as
 * Redis answers), and any operation rejects after `timeoutMs`. A hung connection is dropped after
 * a timeout and a new one is tried a second later. Client errors never reach `process`.
 *
 * @example
 * ```ts
 * const cache = redisCache("redis://127.0.0.1:6379/0", { prefix: "canonurl:" });
 * await cache.set("k", entry);
 * await cache.get("k"); // the entry, from any worker sharing this Redis and prefix
 * await cache.close();
 * ```
 */
export function redisCache(url: string, options?: RedisCacheOptions): Cache {
  if (typeof url !== "string" || !/^(redis|rediss):\/\//i.test(url)) {
    throw new TypeError("redisCache: url must be a redis:// or rediss:// URL");
  }
  checkOptions(
    "redisCache",
    options,
    {
      prefix: (v) => typeof v === "string",
      timeoutMs: isIntegerIn(1, 2 ** 31 - 1),
      retainStaleMs: isIntegerIn(0, Number.MAX_SAFE_INTEGER),
    },
    { prefix: "a string", timeoutMs: "an integer ≥ 1", retainStaleMs: "an integer ≥ 0" },
  );
  const prefix = options?.prefix ?? "canonurl:";
  const timeoutMs = options?.timeoutMs ?? 1_000;
  const retainStaleMs = options?.retainStaleMs ?? DEFAULT_RETAIN_STALE_MS;
  const { createClient } = loadOptional<{ createClient: CreateClient }>("redis", "redisCache");

  let client: RedisClient | undefined;
  let ready: Promise<void> = Promise.resolve();
  let lastError: unknown; // set by a failed attempt, cleared when the connection is ready
  let backoffUntil = 0;
  let closed = false;

  function connect(): RedisClient {
    const c = createClient({
      url,
      // Reject instead of queueing while disconnected: a cache that is away is a miss, now.
      disableOfflineQueue: true,
      commandsQueueMaxLength: 10_000,
      socket: {
        connectTimeout: timeoutMs,
        // Forever: a cache must come back by itself when Redis does.
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000),
      },
    });
    // Operations waiting for the first connection learn of its first failure at once (a refused
    // connection answers in a millisecond), not at their timeout.
    ready = new Promise<void>((resolve, reject) => {
      c.on("ready", () => {
        lastError = undefined;
        resolve();
      });
      // Without a listener an 'error' event would be thrown and end the process.
      c.on("error", (error) => {
        lastError = error;
        reject(error);
      });
    });
    ready.catch(() => {}); // failures reach callers through the operations that wait
    lastError = undefined;
    c.connect().catch(() => {}); // it keeps retrying; each failure is an 'error' event
    client = c;
    return c;
  }

  function drop(c: RedisClient): void {
    if (client === c) client = undefined;
    try {
      c.destroy();
    } catch {
      // Already closed.
    }
  }

  // One timer bounds every operation (they all last timeoutMs): a timer armed and cleared per GET
  // cost a noticeable share of a hit (bench/cache.ts).
  const opTimer = createOpTimer(timeoutMs);

  function run<T>(op: (c: RedisClient) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new Error("redisCache: the cache is closed"));
    if (Date.now() < backoffUntil) {
      return Promise.reject(new Error(`redisCache: ${url} timed out recently; not tried again yet`));
    }
    let c: RedisClient;
    let work: Promise<T>;
    try {
      c = client ?? connect();
      if (!c.isReady && lastError !== undefined) {
        return Promise.reject(new Error(`redisCache: ${url} is unavailable`, { cause: lastError }));
      }
      const connected = c;
      work = c.isReady
        ? op(c)
        : ready.then(
            () => op(connected),
            (cause: unknown) => {
              throw new Error(`redisCache: ${url} is unavailable`, { cause });
            },
          );
    } catch (error) {
      return Promise.reject(error);
    }
    const used = c;
    return opTimer.bound(work, () => {
      backoffUntil = Date.now() + BACKOFF_AFTER_TIMEOUT_MS;
      drop(used); // rejects whatever else waits on this connection
      throw new Error(`redisCache: no answer from ${url} within ${timeoutMs} ms`);
    });
  }

  return {
    get(key) {
      return run((c) =>
        c.get(prefix + storageKey(key, true)).then(
          (value) => (value === null ? undefined : decodeEntry(value)),
          (error: unknown) => {
            // Another type of value under our key (a list, a hash): foreign, so a miss.
            if (error instanceof Error && error.message.startsWith("WRONGTYPE")) return undefined;
            throw error;
          },
        ),
      );
    },
    set(key: string, entry: CacheEntry) {
      return run(async (c) => {
        const k = prefix + storageKey(key, true);
        const text = encodeEntry(entry);
        const ttl = retentionMs(entry, retainStaleMs, Date.now());
        if (ttl <= 0) await c.del(k);
        else await c.set(k, text, { expiration: { type: "PX", value: ttl } });
      });
    },
    delete(key) {
      return run(async (c) => {
        await c.del(prefix + storageKey(key, true));
      });
    },
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      if (c === undefined) return;
      if (!c.isReady) {
        drop(c);
        return;
      }
      // Let commands already sent finish, but never wait on a hung server longer than one operation.
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([c.close(), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
      } finally {
        clearTimeout(timer);
        drop(c);
      }
    },
  };
}
