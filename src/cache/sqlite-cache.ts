import { betterSqlite3Driver } from "./better-sqlite3-driver.js";
import { type Cache, type CacheEntry, type PeekableCache, peekEntry } from "./cache.js";
import {
  checkOptions,
  DEFAULT_RETAIN_STALE_MS,
  isIntegerIn,
  retentionMs,
  type StoreOptions,
} from "./cache-options.js";
import { decodeEntry, encodeEntry } from "./entry-codec.js";
import { missingPeerError } from "./load-optional.js";
import { nodeSqliteDriver } from "./node-sqlite-driver.js";
import type { SqliteDatabase, SqliteDriver, SqliteDriverName, SqliteStatement } from "./sqlite-driver.js";
import { storageKey } from "./storage-key.js";

/** Options of {@link sqliteCache}. */
export interface SqliteCacheOptions extends StoreOptions {
  /**
   * The SQLite library: the built-in `node:sqlite` (Node 22.13+), `better-sqlite3` (an optional
   * peer dependency: `npm i better-sqlite3`), or `"auto"`: the built-in where the running Node
   * has it, else better-sqlite3. Both store the same file format, so a file moves between them.
   * @default "auto"
   */
  driver?: "auto" | SqliteDriverName;
}

const DRIVERS: readonly string[] = ["auto", "node:sqlite", "better-sqlite3"];

/**
 * The SQLite library a {@link sqliteCache} with this `driver` option runs on, loaded now; throws
 * the missing-peer Error (naming `npm i better-sqlite3`) when there is none.
 *
 * @example
 * ```ts
 * sqliteDriver("auto").name; // "node:sqlite" on Node 22.13+, "better-sqlite3" on Node 20
 * ```
 */
export function sqliteDriver(driver: "auto" | SqliteDriverName = "auto"): SqliteDriver {
  if (driver !== "better-sqlite3") {
    const builtin = nodeSqliteDriver();
    if (builtin !== undefined) return builtin;
    if (driver === "node:sqlite") {
      throw new Error(
        `sqliteCache: this Node (${process.version}) has no node:sqlite (it needs 22.13 or later); use driver "better-sqlite3"`,
      );
    }
  }
  try {
    return betterSqlite3Driver();
  } catch (error) {
    if (driver === "better-sqlite3") throw error;
    throw missingPeerError(
      "better-sqlite3",
      "sqliteCache",
      (error as Error).cause ?? error,
      `sqliteCache needs node:sqlite (Node 22.13 or later) or the package better-sqlite3, and this Node (${process.version}) has neither`,
    );
  }
}

/**
 * How long one statement waits for another process's write lock before it rejects. both SQLite
 * libraries are synchronous, so the wait blocks this thread: kept short. Writes hold the lock for
 * microseconds (one row), so a wait this long means something is wrong, not busy.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 1_000;

/** Expired rows are pruned after this many sets in one process, or this long since the last prune. */
const PRUNE_EVERY_SETS = 1_000;
const PRUNE_EVERY_MS = 60_000;
/** Rows one prune deletes at most: bounded work, and a bounded time holding the write lock. */
const PRUNE_BATCH = 1_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS canonurl_entries (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS canonurl_entries_expires_at ON canonurl_entries (expires_at);
`;

interface Opened {
  db: SqliteDatabase;
  get: SqliteStatement;
  put: SqliteStatement;
  remove: SqliteStatement;
  prune: SqliteStatement;
}

/**
 * A persistent cache in one SQLite file (WAL mode), on the built-in `node:sqlite` where the running
 * Node has it (22.13+) and on better-sqlite3 where it does not (see {@link SqliteCacheOptions}). Several processes on one
 * machine may share the file (not over a network file system: WAL needs shared memory). The
 * SQLite library loads when this is called (a missing one throws an Error naming `npm i
 * better-sqlite3`); the file opens on the first operation, so an
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
    {
      retainStaleMs: isIntegerIn(0, Number.MAX_SAFE_INTEGER),
      driver: (v) => typeof v === "string" && DRIVERS.includes(v),
    },
    { retainStaleMs: "an integer ≥ 0", driver: '"auto", "node:sqlite" or "better-sqlite3"' },
  );
  const retainStaleMs = options?.retainStaleMs ?? DEFAULT_RETAIN_STALE_MS;
  const driver = sqliteDriver(options?.driver);
  let opened: Opened | undefined;
  let closed = false;
  let setsSincePrune = 0;
  let lastPrune = 0;

  function open(): Opened {
    if (opened !== undefined) return opened;
    const db = driver.open(path, SQLITE_BUSY_TIMEOUT_MS);
    try {
      db.exec("PRAGMA journal_mode = WAL");
      // A cache may lose the last writes on power loss; it must not pay an fsync per set.
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec(SCHEMA);
      opened = {
        db,
        get: db.prepare("SELECT value FROM canonurl_entries WHERE key = ? AND expires_at > ?"),
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

  /** Runs one operation on the open file, now (SQLite is synchronous here); throws on failure. */
  function runNow<T>(op: (o: Opened) => T): T {
    if (closed) throw new Error("sqliteCache: the cache is closed");
    try {
      return op(open());
    } catch (error) {
      if (opened !== undefined && driver.isFileError(error)) {
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
      const value = o.get.pluck(storageKey(key, true), Date.now());
      return typeof value === "string" ? decodeEntry(value) : undefined;
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
