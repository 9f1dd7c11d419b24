// The hit path of each cache backend against its bare store holding the same payloads: a bare
// lru-cache get, a bare better-sqlite3 prepared select and a bare node-redis GET. What a backend
// adds on top of its store (key bound, format check, validation, freezing, the timeout and
// reconnect guard) is the ratio. Every contender is awaited one operation at a time, as the client
// awaits a cache: the bare synchronous stores pay the same await as the backends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import { createClient as createRedisClient } from "redis";
import type { Cache, CacheEntry } from "../src/cache/cache.js";
import { encodeEntry } from "../src/cache/entry-codec.js";
import { memoryCache } from "../src/cache/memory-cache.js";
import { nodeSqliteDriver } from "../src/cache/node-sqlite-driver.js";
import { redisCache } from "../src/cache/redis-cache.js";
import { sqliteCache } from "../src/cache/sqlite-cache.js";
import type { SqliteDriverName } from "../src/cache/sqlite-driver.js";
import { createCacheKeyer } from "../src/resolve/cache-key.js";
import { copyFor } from "../src/resolve/cached-resolve.js";
import { createClient } from "../src/resolve/client.js";
import { resolveClientOptions } from "../src/resolve/client-options.js";
import type { ClientOptions, Resolution } from "../src/resolve/types.js";
import { sampleEntry } from "../tests/cache/sample-entry.js";
import { fromRoot } from "../tests/helpers/paths.js";

/** One contender: performs one hit for a key and returns what it read (kept alive by the caller). */
interface AsyncCase {
  name: string;
  get(key: string): Promise<unknown>;
}

/** Median ns per operation of each case. */
export type CacheBenchMedians = Map<string, number>;

/** What {@link benchCache} measured. */
export interface CacheBenchResult {
  keys: number;
  rounds: number;
  payloadChars: number;
  medians: CacheBenchMedians;
}

/**
 * Each sample runs a case over every key `passes` times, with `passes` chosen per case in a first
 * calibration pass so that a sample lasts at least `minSampleMs`: 2,000 lru-cache gets take half a
 * millisecond, and samples that short were at the mercy of one GC pause or one preemption on a
 * loaded machine (the same contender read 1.67× and 2.10× in two runs). Every case gets the same
 * treatment; the result is still ns per operation.
 */
async function measure(
  cases: AsyncCase[],
  keys: string[],
  rounds: number,
  minSampleMs = Number(process.env.BENCH_CACHE_SAMPLE_MS ?? 20),
): Promise<CacheBenchMedians> {
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const passes = new Map<string, number>();
  let sink = 0;
  let expected = 0;
  for (const c of cases) {
    const start = process.hrtime.bigint();
    for (const key of keys) if ((await c.get(key)) !== undefined) sink++;
    expected += keys.length;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    passes.set(c.name, Math.max(1, Math.ceil(minSampleMs / Math.max(ms, 0.001))));
  }
  const warmup = 2;
  for (let round = 0; round < warmup + rounds; round++) {
    // Rotating order: drift on a noisy machine spreads over every case.
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length] as AsyncCase;
      const n = passes.get(c.name) ?? 1;
      const start = process.hrtime.bigint();
      for (let pass = 0; pass < n; pass++) {
        for (const key of keys) if ((await c.get(key)) !== undefined) sink++;
      }
      const ns = Number(process.hrtime.bigint() - start) / (keys.length * n);
      expected += keys.length * n;
      if (round >= warmup) samples.get(c.name)?.push(ns);
    }
  }
  if (sink !== expected) {
    throw new Error(`cache bench: ${expected - sink} lookups missed`);
  }
  const medians: CacheBenchMedians = new Map();
  for (const [name, xs] of samples) {
    xs.sort((a, b) => a - b);
    medians.set(name, xs[Math.floor(xs.length / 2)] ?? Number.NaN);
  }
  return medians;
}

type Services = typeof import("../scripts/test-services.mjs");

/**
 * Fills each backend and each bare store with the same `keys` entries, then measures hits on all
 * of them, interleaved, `rounds` times; a redis-server of its own on a free loopback port.
 *
 * @example
 * ```ts
 * const { medians } = await benchCache();
 * medians.get("sqliteCache get") / medians.get("bare better-sqlite3 select + JSON.parse");
 * ```
 */
export async function benchCache(
  keyCount = Number(process.env.BENCH_CACHE_KEYS ?? 2_000),
  rounds = Number(process.env.BENCH_ROUNDS ?? 15),
): Promise<CacheBenchResult> {
  const services = (await import(pathToFileURL(fromRoot("scripts", "test-services.mjs")).href)) as Services;
  const binary = services.ensureRedisServer();
  if (binary.error !== undefined) throw new Error(binary.error);
  const server = await services.startRedisServer({ path: binary.path });
  const dir = mkdtempSync(join(tmpdir(), "canonurl-bench-cache-"));
  const now = Date.now();
  const entries: [string, CacheEntry][] = Array.from({ length: keyCount }, (_, i) => [
    `v1|https://bit.test/x${i}`,
    sampleEntry(i, 3_600_000, now),
  ]);
  const keys = entries.map(([k]) => k);
  // The bare stores hold exactly the text the backends store.
  const texts = entries.map(([k, e]) => [k, encodeEntry(e)] as const);

  // Each backend twice: one for the store-level gets, one holding the clients' keys, so that every
  // store holds exactly `keyCount` entries, as each bare store does (a memoryCache holding both key
  // sets was a table twice the size, and with 16,384 keys that alone read as 1.5× a bare get
  // in an earlier run).
  const storesOf = (name: string): Cache[] => [
    memoryCache({ maxEntries: keyCount, maxBytes: 2 ** 40 }),
    sqliteCache(join(dir, `${name}.sqlite`)),
    redisCache(server.url, { prefix: `${name}:` }),
  ];
  const backends = storesOf("backend");
  const [memory, sqlite, redis] = backends as [Cache, Cache, Cache];
  // The SQLite cache on each library this Node has, by name (issue 21: node:sqlite against
  // better-sqlite3, in one run). On Node 20 only better-sqlite3.
  const drivers: SqliteDriverName[] =
    nodeSqliteDriver() === undefined ? ["better-sqlite3"] : ["node:sqlite", "better-sqlite3"];
  const byDriver = drivers.map((driver) => ({
    driver,
    cache: sqliteCache(join(dir, `${driver.replace(":", "-")}.sqlite`), { driver }),
  }));
  backends.push(...byDriver.map((d) => d.cache));
  const clientStores = storesOf("client");
  for (const cache of backends) for (const [k, e] of entries) await cache.set(k, e);

  // A bare lru-cache holding the decoded objects (what memoryCache holds).
  const lru = new LRUCache<string, object>({ max: keyCount });
  for (const [k, t] of texts) lru.set(k, JSON.parse(t) as object);

  const db = new Database(join(dir, "bare.sqlite"));
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE t (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO t (key, value) VALUES (?, ?)");
  db.transaction(() => {
    for (const [k, t] of texts) insert.run(k, t);
  })();
  const select = db.prepare<[string], string>("SELECT value FROM t WHERE key = ?").pluck();

  const raw = createRedisClient({ url: server.url });
  raw.on("error", () => {});
  await raw.connect();
  for (const [k, t] of texts) await raw.set(`bare:${k}`, t);

  // The whole hit path of a client: key (parse, normalize), lookup, freshness, a caller's own copy.
  // Entries are put under the client's keys; a miss would dial a port nobody listens on and fail.
  const clientOptions: ClientOptions = {
    resolver: async () => ["127.0.0.1"],
    allowedNetworks: ["127.0.0.1/32"],
    allowedPorts: [9],
  };
  const keyer = createCacheKeyer(resolveClientOptions(clientOptions));
  const urls = new Map(keys.map((k, i) => [k, `http://bit.test/x${i}`]));
  for (const [k, e] of entries) {
    const clientKey = keyer.keyOf(urls.get(k) as string) as string;
    for (const cache of clientStores) await cache.set(clientKey, e);
  }
  const clients = clientStores.map((cache) => createClient({ ...clientOptions, cache }));
  // The client's promise is awaited as it is, like the bare stores' (one await per operation, no
  // wrapper of the bench's own around it). A miss would dial port 9, where nobody listens, and
  // reject; every input is also checked to be served from the cache once the timing is done.
  const hit = (i: number) => (k: string) =>
    (clients[i] as ReturnType<typeof createClient>).resolve(urls.get(k) as string);
  async function checkServedFromCache(): Promise<void> {
    for (const client of clients)
      for (const url of urls.values())
        if (!(await client.resolve(url)).cached) throw new Error(`cache bench: ${url} was not a hit`);
  }

  // What every hit hands its caller: its own copy of the stored, frozen resolution (fields,
  // chain, headers, stripped names). No client hit can cost less than this plus a lookup.
  const stored = new Map<string, Resolution>();
  for (const k of keys) {
    const found = await memory.get(k);
    if (found?.outcome.ok === true) stored.set(k, found.outcome.result);
  }

  const cases: AsyncCase[] = [
    {
      name: "a caller's copy of a stored resolution alone",
      get: async (k) => copyFor(stored.get(k) as Resolution, k, true, false, 0),
    },
    { name: "memoryCache client.resolve (hit)", get: hit(0) },
    { name: "sqliteCache client.resolve (hit)", get: hit(1) },
    { name: "redisCache client.resolve (hit)", get: hit(2) },
    { name: "memoryCache get", get: (k) => memory.get(k) },
    { name: "bare lru-cache get", get: async (k) => lru.get(k) },
    { name: "sqliteCache get", get: (k) => sqlite.get(k) },
    ...byDriver.map(
      ({ driver, cache }): AsyncCase => ({ name: `sqliteCache get [${driver}]`, get: (k) => cache.get(k) }),
    ),
    { name: "bare better-sqlite3 select", get: async (k) => select.get(k) },
    {
      name: "bare better-sqlite3 select + JSON.parse",
      get: async (k) => {
        const t = select.get(k);
        return t === undefined ? undefined : JSON.parse(t);
      },
    },
    { name: "redisCache get", get: (k) => redis.get(k) },
    { name: "bare node-redis GET", get: async (k) => (await raw.get(`bare:${k}`)) ?? undefined },
    {
      name: "bare node-redis GET + JSON.parse",
      get: async (k) => {
        const t = await raw.get(`bare:${k}`);
        return t === null ? undefined : JSON.parse(t);
      },
    },
  ];
  try {
    const medians = await measure(cases, keys, rounds);
    await checkServedFromCache();
    return { keys: keyCount, rounds, payloadChars: texts[0]?.[1].length ?? 0, medians };
  } finally {
    for (const client of clients) await client.close();
    for (const cache of [...backends, ...clientStores]) await cache.close();
    db.close();
    raw.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
