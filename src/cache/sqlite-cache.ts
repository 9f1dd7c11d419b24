import type BetterSqlite3 from "better-sqlite3";
import { type Cache, type CacheEntry, type PeekableCache, peekEntry } from "./cache.js";
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

/** Options of {@link sqliteCache}. */
export type SqliteCacheOptions = StoreOptions;

/**
 * How long one statement waits for another process's write lock before it rejects. better-sqlite3
 * is synchronous, so the wait blocks this thread: kept short. Writes hold the lock for
 * microseconds (one row), so a wait this long means something is wrong, not busy.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 1_000;

/** Expired rows are pruned after this many sets in one process, or this long since the last prune. */
const PRUNE_EVERY_SETS = 1_000;
const PRUNE_EVERY_MS = 60_000;
/** Rows one prune deletes at most: bounded work, and a bounded time holding the write lock. */
const PRUNE_BATCH = 1_000;

// Errors after which the file is looked at afresh on the next call (it may have been replaced or
// repaired): the handle is dropped and reopened.
const REOPEN_CODES = /^SQLITE_(CORRUPT|NOTADB|IOERR|CANTOPEN|READONLY)/;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS canonurl_entries (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS canonurl_entries_expires_at ON canonurl_entries (expires_at);
`;

interface Opened {
  db: BetterSqlite3.Database;
  get: BetterSqlite3.Statement<[string, number], string>;
  put: BetterSqlite3.Statement<[string, string, number]>;
  remove: BetterSqlite3.Statement<[string]>;
  prune: BetterSqlite3.Statement<[number, number]>;
}

/**
 * A persistent cache in one SQLite file (better-sqlite3, WAL mode). Several processes on one
 * machine may share the file (not over a network file system: WAL needs shared memory). The
 * better-sqlite3 module loads when this is called; the file opens on the first operation, so an
 * unreadable or corrupt file makes operations reject (a caller bypasses the cache), never this
 * call throw. After a corruption or I/O error the handle is reopened on the next call.
 * Entries are dropped `retainStaleMs` after `freshUntil`; expired rows are pruned, at most 1000 at
 * a time, every 1000 sets or minute.
 *
 * @example
 * ```ts
 * const cache = sqliteCache("/var/cache/canonurl/cache.sqlite");
 * await cache.set("k", entry);
 * await cache.get("k"); // the entry (from this process or another one sharing the file)
 * await cache.close();
 * ```
 */
export function sqliteCache(path: string, options?: SqliteCacheOptions): Cache {
  if (typeof path !== "string" || path === "" || path.includes("\0")) {
    throw new TypeError("sqliteCache: path must be a non-empty file path");
  }
  checkOptions(
    "sqliteCache",
    options,
    { retainStaleMs: isIntegerIn(0, Number.MAX_SAFE_INTEGER) },
    { retainStaleMs: "an integer ≥ 0" },
  );
  const retainStaleMs = options?.retainStaleMs ?? DEFAULT_RETAIN_STALE_MS;
  const Database = loadOptional<typeof BetterSqlite3>("better-sqlite3");
  let opened: Opened | undefined;
  let closed = false;
  let setsSincePrune = 0;
  let lastPrune = 0;

  function open(): Opened {
    if (opened !== undefined) return opened;
    const db = new Database(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    try {
      db.pragma("journal_mode = WAL");
      // A cache may lose the last writes on power loss; it must not pay an fsync per set.
      db.pragma("synchronous = NORMAL");
      db.exec(SCHEMA);
      opened = {
        db,
        get: db
          .prepare<[string, number], string>(
            "SELECT value FROM canonurl_entries WHERE key = ? AND expires_at > ?",
          )
          .pluck(),
        put: db.prepare("INSERT OR REPLACE INTO canonurl_entries (key, value, expires_at) VALUES (?, ?, ?)"),
        remove: db.prepare("DELETE FROM canonurl_entries WHERE key = ?"),
        prune: db.prepare(
          "DELETE FROM canonurl_entries WHERE key IN (SELECT key FROM canonurl_entries WHERE expires_at <= ? LIMIT ?)",
        ),
      };
      return opened;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Runs one operation on the open file, now (better-sqlite3 is synchronous); throws on failure. */
  function runNow<T>(op: (o: Opened) => T): T {
    if (closed) throw new Error("sqliteCache: the cache is closed");
    try {
      return op(open());
    } catch (error) {
      if (opened !== undefined && REOPEN_CODES.test(String((error as { code?: unknown }).code))) {
        const stale = opened;
        opened = undefined;
        try {
          stale.db.close();
        } catch {
          // Closing a handle on a broken file may fail too; it is dropped either way.
        }
      }
      throw error;
    }
  }

  /** {@link runNow} for the Cache methods: a rejection for any failure, never a throw. */
  function run<T>(op: (o: Opened) => T): Promise<T> {
    try {
      return Promise.resolve(runNow(op));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // The lookup, answered at once: the client's hit path calls it directly (peekEntry), the Cache's
  // get wraps it. A statement waiting on another process's lock blocks this thread either way.
  function peek(key: string): CacheEntry | undefined {
    return runNow((o) => {
      const value = o.get.get(storageKey(key, true), Date.now());
      return value === undefined ? undefined : decodeEntry(value);
    });
  }

  function pruneIfDue(o: Opened, now: number): void {
    if (++setsSincePrune < PRUNE_EVERY_SETS && now - lastPrune < PRUNE_EVERY_MS) return;
    setsSincePrune = 0;
    lastPrune = now;
    try {
      o.prune.run(now, PRUNE_BATCH);
    } catch {
      // The set itself succeeded; a prune that lost a lock race runs again at the next trigger.
    }
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
    set(key: string, entry: CacheEntry) {
      return run((o) => {
        const k = storageKey(key, true);
        const text = encodeEntry(entry);
        const now = Date.now();
        const ttl = retentionMs(entry, retainStaleMs, now);
        if (ttl <= 0) o.remove.run(k);
        else o.put.run(k, text, now + ttl);
        pruneIfDue(o, now);
      });
    },
    delete(key) {
      return run((o) => {
        o.remove.run(storageKey(key, true));
      });
    },
    close() {
      closed = true;
      const o = opened;
      opened = undefined;
      try {
        o?.db.close();
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  return cache;
}
