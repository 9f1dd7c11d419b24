// The client with a cache, against a local server reached through `.test` names: lifetimes from
// HTTP freshness, negative entries, stale-if-error, invalidate, keys, in-flight sharing, and a
// cache that fails never failing a resolution.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Cache, CacheEntry } from "../../src/cache/cache.js";
import { memoryCache } from "../../src/cache/memory-cache.js";
import { sqliteCache } from "../../src/cache/sqlite-cache.js";
import { isFetchError, isRedirectError } from "../../src/errors/guards.js";
import { CACHE_OP_TIMEOUT_MS } from "../../src/resolve/cached-resolve.js";
import { createClient } from "../../src/resolve/client.js";
import { redirect, routes, type Site, startSite, text } from "./site.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A memoryCache that records every entry set, by key. */
function recording(): Cache & { sets: Map<string, CacheEntry>; gets: number } {
  const inner = memoryCache();
  const sets = new Map<string, CacheEntry>();
  const cache = {
    sets,
    gets: 0,
    get(key: string) {
      cache.gets++;
      return inner.get(key);
    },
    set(key: string, entry: CacheEntry) {
      sets.set(key, entry);
      return inner.set(key, entry);
    },
    delete: (key: string) => inner.delete(key),
    close: () => inner.close(),
  };
  return cache;
}

/** The one entry set for a key ending in `path`. */
function entryFor(cache: { sets: Map<string, CacheEntry> }, path: string): CacheEntry {
  const found = [...cache.sets].filter(([key]) => key.endsWith(path));
  assert.equal(found.length, 1, `one entry for ${path}, got ${found.map(([k]) => k).join(", ")}`);
  return (found[0] as [string, CacheEntry])[1];
}

function lifetime(entry: CacheEntry): number {
  return entry.freshUntil - entry.storedAt;
}

function withHeaders(status: number, headers: Record<string, string>, body = "ok") {
  return (_q: unknown, r: import("node:http").ServerResponse) => {
    r.writeHead(status, { "content-type": "text/plain", ...headers });
    r.end(body);
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("client cache: lifetimes from HTTP freshness (RFC 9111), clamped by cachePolicy", () => {
  let site: Site;
  const lastModified = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toUTCString();
  before(async () => {
    site = await startSite(
      routes({
        "/long": withHeaders(200, { "cache-control": "max-age=604800" }),
        "/r301-cc": withHeaders(301, { location: "/long", "cache-control": "max-age=86400" }),
        // Heuristic freshness (RFC 9111 §4.2.2): a tenth of the time since Last-Modified, 10 days.
        "/r301-heuristic": (q, r) =>
          withHeaders(301, { location: "/long", "last-modified": lastModified(10) })(q, r),
        "/r301-plain": redirect("/long"),
        "/r302-maxage": withHeaders(302, { location: "/long", "cache-control": "max-age=600" }),
        "/r302-plain": redirect("/long", 302),
        "/nostore": withHeaders(200, { "cache-control": "no-store" }),
        "/expired": withHeaders(200, { expires: new Date(Date.now() - DAY).toUTCString() }),
        "/bitly": withHeaders(301, { location: "/long", "cache-control": "private, max-age=90" }),
        "/year": withHeaders(200, { "cache-control": "max-age=31536000" }),
        "/short-then-long": withHeaders(301, { location: "/long", "cache-control": "max-age=120" }),
      }),
    );
  });
  after(() => site.close());

  // [path, lifetime with minTtlMs 0 (the HTTP freshness itself), lifetime with the default policy]
  const table: [string, number, number][] = [
    ["/r301-cc", DAY, DAY],
    ["/r301-heuristic", DAY, DAY],
    ["/r301-plain", 0, HOUR],
    ["/r302-maxage", 600_000, HOUR],
    ["/r302-plain", 0, HOUR],
    ["/nostore", 0, HOUR],
    ["/expired", 0, HOUR],
    ["/bitly", 90_000, HOUR],
    ["/year", 365 * DAY, 30 * DAY],
    ["/short-then-long", 120_000, HOUR],
    ["/long", 7 * DAY, 7 * DAY],
  ];

  for (const [path, raw, clamped] of table) {
    it(`${path}: ${raw / 1000} s of freshness, stored for ${clamped / 1000} s by default`, async () => {
      for (const [policy, expected] of [
        [{ minTtlMs: 0, maxTtlMs: 366 * DAY }, raw],
        [{}, clamped],
      ] as const) {
        const cache = recording();
        const client = createClient(site.options({ cache, cachePolicy: policy }));
        const result = await client.resolve(site.url(path));
        const endsAt = ["/nostore", "/expired", "/year", "/long"].includes(path) ? path : "/long";
        assert.equal(result.url, site.url(endsAt));
        if (expected === 0) {
          assert.equal(cache.sets.size, 0, `${path}: no freshness and no floor, nothing stored`);
          await client.close();
          continue;
        }
        const got = lifetime(entryFor(cache, path));
        // Date has one-second precision: the age the library computes can be up to a second.
        assert.ok(
          got <= expected && got >= expected - 2_000,
          `${path} with ${JSON.stringify(policy)}: lifetime ${got}, expected ${expected}`,
        );
        await client.close();
      }
    });
  }
});

describe("client cache: hits, negative entries, stale-if-error, invalidate, keys", () => {
  let site: Site;
  let flaky = "ok";
  before(async () => {
    site = await startSite((request, response) => {
      const path = request.url ?? "/";
      if (path.startsWith("/flaky")) {
        if (flaky === "ok") return withHeaders(200, { "cache-control": "max-age=0" })(request, response);
        if (flaky === "503") return withHeaders(503, {})(request, response);
        return withHeaders(404, {})(request, response);
      }
      routes({
        "/start?utm_source=x": redirect("/article"),
        "/article": text(),
        "/gone": withHeaders(404, {}),
        "/unavailable": withHeaders(503, {}),
        "/loop-a": redirect("/loop-b"),
        "/loop-b": redirect("/loop-a"),
      })(request, response);
    });
  });
  after(() => site.close());
  const count = (path: string) => site.log.filter((line) => line.endsWith(path)).length;

  for (const [store, make] of [
    ["a store that answers later", recording],
    ["a store that answers at once (memoryCache)", () => memoryCache()],
  ] as const)
    it(`a second resolution is served from the cache: cached, not stale, no request, its own input and objects (${store})`, async () => {
      const cache = make();
      const client = createClient(site.options({ cache }));
      const first = await client.resolve(site.url("/start?utm_source=x"));
      const before = site.log.length;
      const second = await client.resolve(
        `  ${site.url("/start?utm_source=x").replace("a.test", "A.TEST")} `,
      );
      assert.equal(site.log.length, before, "no request for a hit");
      assert.equal(first.cached, false);
      assert.equal(first.stale, false);
      assert.equal(second.cached, true);
      assert.equal(second.stale, false);
      assert.equal(second.url, first.url);
      assert.deepEqual(second.chain, first.chain);
      assert.notEqual(second.original, first.original, "each result names its own input");
      second.chain.push({ url: "x", via: "redirect", method: "GET", status: 1 });
      const third = await client.resolve(site.url("/start?utm_source=x"));
      assert.equal(third.chain.length, first.chain.length, "a caller's change never reaches the cache");
      await client.close();
    });

  it("deterministic failures (404, redirect loop) are cached for errorTtlMs; transient ones (503) are not", async () => {
    const cache = recording();
    const client = createClient(site.options({ cache, cachePolicy: { errorTtlMs: 120_000 } }));
    for (let i = 0; i < 3; i++) {
      await assert.rejects(
        client.resolve(site.url("/gone")),
        (e) => isFetchError(e) && e.code === "http-status" && e.status === 404,
      );
      await assert.rejects(
        client.resolve(site.url("/loop-a")),
        (e) => isRedirectError(e) && e.code === "redirect-loop",
      );
      await assert.rejects(
        client.resolve(site.url("/unavailable")),
        (e) => isFetchError(e) && e.status === 503,
      );
    }
    assert.equal(count("/gone"), 1, "a 404 is asked once");
    assert.equal(count("/loop-b"), 1, "a loop is walked once");
    assert.equal(count("/unavailable"), 3, "a 503 is asked every time");
    assert.equal(lifetime(entryFor(cache, "/gone")), 120_000);
    assert.equal([...cache.sets.keys()].filter((k) => k.endsWith("/unavailable")).length, 0);
    await client.close();
    // transientTtlMs > 0 caches them too.
    const brief = recording();
    const again = createClient(site.options({ cache: brief, cachePolicy: { transientTtlMs: 5_000 } }));
    const asked = count("/unavailable");
    await assert.rejects(again.resolve(site.url("/unavailable")));
    await assert.rejects(again.resolve(site.url("/unavailable")), (e) => isFetchError(e) && e.status === 503);
    assert.equal(count("/unavailable"), asked + 1);
    assert.equal(lifetime(entryFor(brief, "/unavailable")), 5_000);
    await again.close();
  });

  it("an expired success is served stale when the fresh attempt fails transiently, within staleIfErrorMs only", async () => {
    const cache = memoryCache();
    const policy = { minTtlMs: 50, maxTtlMs: 50 };
    flaky = "ok";
    const client = createClient(site.options({ cache, cachePolicy: policy }));
    const fresh = await client.resolve(site.url("/flaky-1"));
    await sleep(80);
    flaky = "503";
    const stale = await client.resolve(site.url("/flaky-1"));
    assert.equal(stale.cached, true);
    assert.equal(stale.stale, true);
    assert.equal(stale.url, fresh.url);
    // staleIfErrorMs 0: the failure is the answer.
    const strict = createClient(site.options({ cache, cachePolicy: { ...policy, staleIfErrorMs: 0 } }));
    flaky = "ok";
    await strict.resolve(site.url("/flaky-2"));
    await sleep(80);
    flaky = "503";
    await assert.rejects(strict.resolve(site.url("/flaky-2")), (e) => isFetchError(e) && e.status === 503);
    // A deterministic failure (404) is the new truth, never hidden behind a stale success.
    flaky = "ok";
    await client.resolve(site.url("/flaky-3"));
    await sleep(80);
    flaky = "404";
    await assert.rejects(client.resolve(site.url("/flaky-3")), (e) => isFetchError(e) && e.status === 404);
    flaky = "ok";
    await Promise.all([client.close(), strict.close()]);
  });

  it("invalidate(url) makes the next resolution go to the network", async () => {
    const cache = memoryCache();
    const client = createClient(site.options({ cache }));
    await client.resolve(site.url("/article"));
    await client.resolve(site.url("/article"));
    assert.equal(count("/article") >= 1, true);
    const before = count("/article");
    await client.invalidate(` ${site.url("/article")}`);
    const after = await client.resolve(site.url("/article"));
    assert.equal(after.cached, false);
    assert.equal(count("/article"), before + 1);
    await client.close();
    const none = createClient(site.options());
    await none.invalidate(site.url("/article")); // no cache: nothing to do
    await none.close();
  });

  it("keys: options that change the outcome keep entries apart; equal options share across clients", async () => {
    const cache = recording();
    const a = createClient(site.options({ cache }));
    const b = createClient(site.options({ cache }));
    const rfc = createClient(site.options({ cache, preset: "rfc3986" }));
    const noLinks = createClient(site.options({ cache, canonicalLinks: "off" }));
    const url = site.url("/start?utm_source=x");
    const first = await a.resolve(url);
    assert.equal((await b.resolve(url)).cached, true, "another client with equal options hits");
    const other = await rfc.resolve(url);
    assert.equal(other.cached, false, "another preset misses");
    assert.equal(other.url, first.url);
    assert.equal((await noLinks.resolve(url)).cached, false, "another canonicalLinks misses");
    const keys = [...cache.sets.keys()];
    assert.equal(keys.length, 3);
    for (const key of keys) assert.match(key, /^v1:[0-9a-f]{16}:http:\/\/a\.test:\d+\/start\?utm_source=x$/);
    await Promise.all([a.close(), b.close(), rfc.close(), noLinks.close()]);
  });

  it("input with credentials never reaches the store (neither looked up nor written)", async () => {
    const cache = recording();
    const client = createClient(site.options({ cache }));
    const withCredentials = site.url("/article").replace("://", "://user:secret@");
    for (let i = 0; i < 2; i++) await assert.rejects(client.resolve(withCredentials), { code: "userinfo" });
    assert.equal(cache.gets, 0);
    assert.equal(cache.sets.size, 0);
    await client.resolve(site.url("/article"));
    assert.equal(cache.gets, 1, "the same client does use the store for other input");
    await client.close();
  });

  it("cachePolicy is validated at construction", () => {
    assert.throws(() => createClient({ cachePolicy: { minTTL: 1 } as never }), /cachePolicy\.minTTL/);
    assert.throws(() => createClient({ cachePolicy: { minTtlMs: -1 } }), /cachePolicy\.minTtlMs/);
    assert.throws(() => createClient({ cachePolicy: { minTtlMs: 10, maxTtlMs: 5 } }), /must not exceed/);
    assert.throws(() => createClient({ cache: { get() {}, set() {} } as never }), /cache/);
  });
});

describe("client cache: concurrent resolutions of one key share one network resolution", () => {
  let site: Site;
  let held: (() => void)[] = [];
  before(async () => {
    site = await startSite((request, response) => {
      if ((request.url ?? "").startsWith("/held")) {
        held.push(() => text()(request, response));
        return;
      }
      text()(request, response);
    });
  });
  after(() => site.close());

  it("50 concurrent callers, one request; one caller's abort rejects only that caller", async () => {
    held = [];
    const client = createClient(site.options({ cache: memoryCache() }));
    const aborter = new AbortController();
    const url = site.url("/held-1");
    const callers = Array.from({ length: 50 }, (_, i) =>
      client.resolve(url, i === 0 ? { signal: aborter.signal } : {}),
    );
    while (held.length === 0) await sleep(5);
    aborter.abort();
    await assert.rejects(callers[0] as Promise<unknown>, (e) => (e as { code?: string }).code !== undefined);
    for (const release of held) release();
    const results = await Promise.all(callers.slice(1));
    assert.equal(held.length, 1, "one request for 50 callers");
    assert.ok(results.every((r) => r.url === results[0]?.url && r.cached === false));
    await client.close();
  });

  it("when every caller aborts, the shared request is abandoned and the next caller starts afresh", async () => {
    held = [];
    const client = createClient(site.options({ cache: memoryCache() }));
    const url = site.url("/held-2");
    const aborters = [new AbortController(), new AbortController()];
    const callers = aborters.map((a) => client.resolve(url, { signal: a.signal }));
    while (held.length === 0) await sleep(5);
    for (const a of aborters) a.abort();
    for (const c of callers) await assert.rejects(c);
    const next = client.resolve(url);
    while (held.length < 2) await sleep(5);
    for (const release of held) release();
    assert.equal((await next).cached, false);
    await client.close();
  });

  for (const withSignal of [false, true]) {
    it(`a lookup that missed a write of its key made meanwhile looks again, not fetches again${withSignal ? " (callers with a signal)" : ""}`, async () => {
      // The second lookup reads the store before the first caller's write and answers after it.
      const inner = memoryCache();
      let gets = 0;
      let answer: () => void = () => {};
      const late = new Promise<void>((resolve) => (answer = resolve));
      const cache: Cache = {
        async get(key) {
          const n = ++gets;
          const found = await inner.get(key);
          if (n === 2) await late;
          return found;
        },
        set: (key, entry) => inner.set(key, entry),
        delete: (key) => inner.delete(key),
        close: () => inner.close(),
      };
      const client = createClient(site.options({ cache }));
      const path = `/race-${withSignal}`;
      const options = withSignal ? { signal: new AbortController().signal } : {};
      const first = client.resolve(site.url(path), options);
      const second = client.resolve(site.url(path), options);
      assert.equal((await first).cached, false);
      // The first caller's write has settled and its shared work is gone.
      await sleep(50);
      answer();
      const got = await second;
      assert.equal(got.cached, true, "served from the entry the first caller stored");
      assert.equal(site.log.filter((line) => line.endsWith(path)).length, 1, "one request for the URL");
      assert.equal(gets, 3, "the second caller looked again");
      await client.close();
    });
  }

  it("a miss asks the store once, though other keys' writes settle during its lookup", async () => {
    const inner = memoryCache();
    let gets = 0;
    const lookups: [number, number][] = [];
    const written: number[] = [];
    const cache: Cache = {
      async get(key) {
        gets++;
        const start = performance.now();
        await sleep(20);
        lookups.push([start, performance.now()]);
        return inner.get(key);
      },
      async set(key, entry) {
        await inner.set(key, entry);
        written.push(performance.now());
      },
      delete: (key) => inner.delete(key),
      close: () => inner.close(),
    };
    const client = createClient(site.options({ cache }));
    // Started 3 ms apart, each lookup 20 ms long: earlier URLs are stored while later ones look up.
    const results = [];
    for (let i = 0; i < 30; i++) {
      results.push(client.resolve(site.url(`/many-${i}`)));
      await sleep(3);
    }
    assert.equal((await Promise.all(results)).filter((r) => !r.cached).length, 30);
    assert.equal(site.log.filter((line) => line.includes("/many-")).length, 30);
    assert.equal(gets, 30, "one lookup per URL");
    const overlapping = lookups.filter(([start, end]) => written.some((at) => at > start && at < end));
    assert.ok(overlapping.length >= 10, `${overlapping.length} lookups saw another key's write settle`);
    await client.close();
  });
});

describe("client cache: a failing cache never fails or holds up a resolution", () => {
  let site: Site;
  before(async () => {
    site = await startSite(routes({ "/x": text(), "/y": text() }));
  });
  after(() => site.close());

  const failing: Cache = {
    get: () => Promise.reject(new Error("store down")),
    set: () => Promise.reject(new Error("store down")),
    delete: () => Promise.reject(new Error("store down")),
    close: () => Promise.resolve(),
  };
  const throwing: Cache = {
    get: () => {
      throw new Error("sync throw");
    },
    set: () => {
      throw new Error("sync throw");
    },
    delete: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  const hanging: Cache = {
    get: () => new Promise(() => {}),
    set: () => new Promise(() => {}),
    delete: () => new Promise(() => {}),
    close: () => Promise.resolve(),
  };
  const garbage: Cache = {
    get: () =>
      Promise.resolve({ outcome: { ok: true, result: { url: 42 } }, storedAt: 0, freshUntil: 9e15 } as never),
    set: () => Promise.resolve(),
    delete: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };

  // Closed, a memoryCache throws from the lookup the client makes at once (and rejects from get).
  const closed = memoryCache();
  void closed.close();

  for (const [name, cache] of [
    ["rejecting", failing],
    ["throwing", throwing],
    ["garbage-returning", garbage],
    ["closed in-process", closed],
  ] as const) {
    it(`a ${name} cache: 30 resolutions all succeed, the logger says so once`, async () => {
      const messages: string[] = [];
      const client = createClient(site.options({ cache, logger: { debug: (m) => messages.push(m) } }));
      for (let i = 0; i < 30; i++) {
        const r = await client.resolve(site.url(i % 2 === 0 ? "/x" : "/y"));
        assert.equal(r.cached, false);
      }
      const about = messages.filter((m) => m.startsWith("cache "));
      if (name === "garbage-returning")
        assert.ok(about.length >= 1 && about.every((m) => /unusable/.test(m)));
      else assert.equal(about.length, 1, `one message, got ${JSON.stringify(about)}`);
      await client.close();
    });
  }

  it("a success of a lookup begun before the outage does not end it: one outage, one message", async () => {
    // The interleaving a store that goes away mid-batch produces (seen under load in
    // cache-batch's Redis restart test): a lookup sent before the outage answers after a later
    // one failed. It says nothing about the store now, so the next failure is the same outage.
    const pending: ((value: undefined) => void)[] = [];
    let down = false;
    const flaky: Cache = {
      get: () => (down ? Promise.reject(new Error("store down")) : new Promise((r) => pending.push(r))),
      set: () => (down ? Promise.reject(new Error("store down")) : Promise.resolve()),
      delete: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const messages: string[] = [];
    const client = createClient(site.options({ cache: flaky, logger: { debug: (m) => messages.push(m) } }));
    const early = client.resolve(site.url("/x")); // its lookup waits in `pending`
    while (pending.length === 0) await new Promise((r) => setTimeout(r, 1));
    down = true;
    await client.resolve(site.url("/y")); // fails: the outage is logged
    pending[0]?.(undefined); // the early lookup now answers (a miss)
    await early;
    await new Promise((r) => setTimeout(r, 1_100)); // past the bypass window
    await client.resolve(site.url("/x")); // fails again: the same outage
    const about = messages.filter((m) => m.startsWith("cache "));
    assert.equal(about.length, 1, `one message, got ${JSON.stringify(about)}`);
    await client.close();
  });

  it("a cache that never answers: the resolution goes on after the bound and ends within its deadline", async () => {
    const client = createClient(
      site.options({ cache: hanging, totalTimeoutMs: CACHE_OP_TIMEOUT_MS + 2_000 }),
    );
    const started = performance.now();
    const r = await client.resolve(site.url("/x"));
    const ms = performance.now() - started;
    assert.equal(r.cached, false);
    assert.ok(ms < CACHE_OP_TIMEOUT_MS + 2_000, `took ${ms.toFixed(0)} ms`);
    // Right after, the cache is left alone: no second wait.
    const again = performance.now();
    await client.resolve(site.url("/y"));
    assert.ok(performance.now() - again < CACHE_OP_TIMEOUT_MS, "a cache that just timed out is bypassed");
    await client.close();
  });

  it("a corrupt SQLite file: every resolution succeeds without it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "canonurl-client-sqlite-"));
    try {
      const path = join(dir, "cache.sqlite");
      writeFileSync(path, Buffer.alloc(8192, 0x5a));
      const messages: string[] = [];
      const client = createClient(
        site.options({ cache: sqliteCache(path), logger: { debug: (m) => messages.push(m) } }),
      );
      const results = [];
      for await (const o of client.resolveMany(
        Array.from({ length: 40 }, (_, i) => site.url(i % 2 ? "/x" : "/y")),
      )) {
        results.push(o);
      }
      assert.equal(results.filter((o) => o.ok).length, 40);
      assert.equal(messages.filter((m) => m.startsWith("cache ")).length, 1);
      await client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
