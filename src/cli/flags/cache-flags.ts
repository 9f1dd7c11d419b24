import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { ParseArgsConfig } from "node:util";
import type { Cache } from "../../cache/cache.js";
import { MISSING_PEER } from "../../cache/load-optional.js";
import { CACHE_BYPASS_EVENT } from "../../resolve/cache-bypass-event.js";
import { UsageError } from "../io/io.js";

/**
 * The parseArgs table of the cache and politeness flags of network mode: `--cache PATH|redis://…`,
 * `--no-cache`, `--refresh`, `--host-concurrency N`.
 *
 * @example
 * ```ts
 * parseArgs({ args, options: { ...CACHE_FLAGS, json: { type: "boolean" } } });
 * ```
 */
export const CACHE_FLAGS = {
  cache: { type: "string" },
  "no-cache": { type: "boolean" },
  refresh: { type: "boolean" },
  "host-concurrency": { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/** Parsed values of {@link CACHE_FLAGS}. */
export interface CacheFlagValues {
  cache?: string | undefined;
  "no-cache"?: boolean | undefined;
  refresh?: boolean | undefined;
  "host-concurrency"?: string | undefined;
}

/** The file name of the default cache inside its directory. */
export const DEFAULT_CACHE_FILE = "resolutions.sqlite";

/**
 * The directory of the default cache, by the XDG Base Directory convention:
 * `$XDG_CACHE_HOME/canonurl` when that variable holds an absolute path (a relative one is to be
 * ignored, the convention says), else `~/.cache/canonurl`.
 *
 * @example
 * ```ts
 * defaultCacheDir({ XDG_CACHE_HOME: "/tmp/xdg" }); // "/tmp/xdg/canonurl"
 * ```
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env.HOME || home, ".cache");
  return join(base, "canonurl");
}

/** What the cache flags ask for. */
export interface CacheChoice {
  /** The cache to hand the client, or undefined for `--no-cache`. */
  cache: Cache | undefined;
  /** Where it lives, for messages: a file path or the redis URL. */
  where: string | undefined;
  /** Politeness: requests in flight per host, when given. */
  hostConcurrency?: number;
  /** The client's logger: the first time the cache is bypassed (it failed), one line through `warn`. */
  logger?: { debug(message: string, data?: object): void };
}

/**
 * Opens the cache the flags name: SQLite at the default path (its directory created) when none is
 * given, SQLite at `--cache PATH`, Redis at `--cache redis://…`, none with `--no-cache`.
 * `--refresh` wraps it so that only entries stored by this run are read: the run resolves every
 * URL anew (once) and leaves the cache up to date. The store's client library loads only
 * here, so offline runs never pay for it. A default directory that cannot be created is not an
 * error: the run goes on without a cache and `warn` says why once. Nor is a Node with no SQLite
 * library for the default cache (Node 20 without better-sqlite3): `warn` says once how to get one
 * and the run uses a memory cache. A store named with `--cache` whose library is missing throws
 * the missing-peer Error (its message names `npm i …`; the CLI exits 2 with it).
 *
 * @example
 * ```ts
 * const { cache } = await cacheFromFlags({ cache: "redis://127.0.0.1:6379/0" }, process.env, console.error);
 * ```
 */
export async function cacheFromFlags(
  values: CacheFlagValues,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): Promise<CacheChoice> {
  const choice: CacheChoice = { cache: undefined, where: undefined };
  if (values["host-concurrency"] !== undefined) {
    const value = values["host-concurrency"];
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > 1000) {
      throw new UsageError(`--host-concurrency must be an integer from 1 to 1000, got '${value}'`);
    }
    choice.hostConcurrency = n;
  }
  if (values["no-cache"] === true) {
    if (values.cache !== undefined) throw new UsageError("--cache and --no-cache contradict each other");
    if (values.refresh === true) throw new UsageError("--refresh and --no-cache contradict each other");
    return choice;
  }
  let cache: Cache;
  if (values.cache !== undefined && /^rediss?:\/\//i.test(values.cache)) {
    const { redisCache } = await import("../../cache/redis-cache.js");
    cache = redisCache(values.cache);
    choice.where = values.cache;
  } else {
    let path = values.cache;
    if (path === "") throw new UsageError("--cache needs a file path or a redis:// URL");
    if (path === undefined) {
      const dir = defaultCacheDir(env);
      try {
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        warn(`canonurl: no cache: cannot create ${dir}: ${(error as Error).message}\n`);
        return choice;
      }
      path = join(dir, DEFAULT_CACHE_FILE);
    }
    const { sqliteCache } = await import("../../cache/sqlite-cache.js");
    try {
      cache = sqliteCache(path);
      choice.where = path;
    } catch (error) {
      if (values.cache !== undefined || (error as { code?: unknown }).code !== MISSING_PEER) throw error;
      warn(
        `canonurl: no SQLite on Node ${process.version} (node:sqlite needs 22.13+), so resolutions are cached in memory for this run only; to keep them between runs: npm i better-sqlite3, or use Node 22.13+\n`,
      );
      const { memoryCache } = await import("../../cache/memory-cache.js");
      cache = memoryCache();
      choice.where = "memory";
    }
  }
  choice.cache = values.refresh === true ? refreshing(cache) : cache;
  choice.logger = bypassReporter(choice.where ?? "", warn);
  return choice;
}

// A cache that fails never fails a run, so without this line a user would believe reruns are
// cached when they are not (issue 21). Once per run: an outage that comes and goes is one story.
function bypassReporter(where: string, warn: (message: string) => void): NonNullable<CacheChoice["logger"]> {
  let told = false;
  return {
    debug(_message, data) {
      if (told || (data as { event?: unknown } | undefined)?.event !== CACHE_BYPASS_EVENT) return;
      told = true;
      const error = (data as { error?: unknown }).error;
      warn(`canonurl: the cache (${where}) is not working, so this run is not cached: ${String(error)}\n`);
    },
  };
}

// --refresh: a cache that answers only with entries stored since this run started, so every URL
// is resolved anew once (a duplicate later in the input is then served from what this run stored)
// and every answer is stored as usual. Judged by the entry's own storedAt: no memory per key.
function refreshing(cache: Cache, startedAt: number = Date.now()): Cache {
  return {
    get: async (key) => {
      const entry = await cache.get(key);
      return entry !== undefined && entry.storedAt >= startedAt ? entry : undefined;
    },
    set: (key, entry) => cache.set(key, entry),
    delete: (key) => cache.delete(key),
    close: () => cache.close(),
  };
}
