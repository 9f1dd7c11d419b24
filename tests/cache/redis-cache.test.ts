import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { createClient } from "redis";
import { redisCache } from "../../src/cache/redis-cache.js";
import { storageKey } from "../../src/cache/storage-key.js";
import { freePort, type RedisServer, startRedisServer, testRedisUrl } from "../helpers/redis-server.js";
import { cacheContract } from "./contract.js";
import { sampleEntry } from "./sample-entry.js";

type RawClient = ReturnType<typeof createClient>;

async function rawClient(url: string): Promise<RawClient> {
  const raw = createClient({ url });
  raw.on("error", () => {});
  await raw.connect();
  return raw;
}

async function keysUnder(raw: RawClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
  return keys;
}

describe("redisCache: the Cache contract", () => {
  cacheContract(async () => {
    const url = testRedisUrl();
    const prefix = `contract-${randomUUID()}:`;
    const raw = await rawClient(url);
    return {
      name: "redisCache",
      open: (options) => redisCache(url, { prefix, ...options }),
      async writeRaw(key, value) {
        await raw.set(prefix + storageKey(key, true), value, { expiration: { type: "PX", value: 60_000 } });
      },
      async rawKeys() {
        return (await keysUnder(raw, prefix)).map((k) => k.slice(prefix.length));
      },
      childSpec: { backend: "redis", target: url, prefix },
      async dispose() {
        const keys = await keysUnder(raw, prefix);
        if (keys.length > 0) await raw.del(keys);
        raw.destroy();
      },
    };
  });
});

describe("redisCache: the store", () => {
  let raw: RawClient;
  before(async () => {
    raw = await rawClient(testRedisUrl());
  });
  after(() => raw.destroy());

  test("keys carry the default prefix and a PX expiry of freshUntil + retainStaleMs", async () => {
    const cache = redisCache(testRedisUrl(), { retainStaleMs: 5_000 });
    const key = `ttl-${randomUUID()}`;
    await cache.set(key, sampleEntry(1, 10_000));
    const ttl = await raw.pTTL(`canonurl:${key}`);
    assert.ok(ttl > 13_000 && ttl <= 15_000, `pttl ${ttl}`);
    await cache.delete(key);
    await cache.close();
  });

  test("prefixes keep caches apart", async () => {
    const a = redisCache(testRedisUrl(), { prefix: `a-${randomUUID()}:` });
    const b = redisCache(testRedisUrl(), { prefix: `b-${randomUUID()}:` });
    await a.set("same", sampleEntry(1));
    assert.equal(await b.get("same"), undefined);
    assert.ok(await a.get("same"));
    await a.delete("same");
    await Promise.all([a.close(), b.close()]);
  });

  test("a value of another Redis type under the key is a miss, and set replaces it", async () => {
    const prefix = `wrongtype-${randomUUID()}:`;
    const cache = redisCache(testRedisUrl(), { prefix });
    await raw.lPush(`${prefix}k`, "x");
    await raw.hSet(`${prefix}h`, "f", "v");
    assert.equal(await cache.get("k"), undefined);
    assert.equal(await cache.get("h"), undefined);
    await cache.set("k", sampleEntry(2));
    assert.ok(await cache.get("k"));
    await raw.del([`${prefix}k`, `${prefix}h`]);
    await cache.close();
  });

  test("options are validated", () => {
    assert.throws(() => redisCache("http://127.0.0.1:6379"), TypeError);
    assert.throws(() => redisCache(testRedisUrl(), { prefixx: "a" } as never), /unknown option "prefixx"/);
    assert.throws(() => redisCache(testRedisUrl(), { timeoutMs: 0 }), /"timeoutMs"/);
    assert.throws(() => redisCache(testRedisUrl(), { prefix: 1 } as never), /"prefix"/);
  });
});

/** Counts errors that escape to the process while `fn` runs (an 'error' event without a listener). */
async function noEscapedErrors(fn: () => Promise<void>): Promise<void> {
  const escaped: unknown[] = [];
  const onError = (e: unknown) => escaped.push(e);
  process.on("uncaughtException", onError);
  process.on("unhandledRejection", onError);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off("uncaughtException", onError);
    process.off("unhandledRejection", onError);
  }
  assert.deepEqual(escaped, [], "no error reached the process");
}

/** Elapsed ms of a promise that must reject. */
async function rejectsWithin(p: Promise<unknown>): Promise<number> {
  const start = performance.now();
  await assert.rejects(p);
  return performance.now() - start;
}

describe("redisCache: faults against a real server", { timeout: 60_000 }, () => {
  test("Redis stopped mid-use: operations fail fast while it is down and work again after a restart", () =>
    noEscapedErrors(async () => {
      let server: RedisServer = await startRedisServer();
      const cache = redisCache(server.url, { timeoutMs: 2_000 });
      try {
        await cache.set("k", sampleEntry(1));
        assert.ok(await cache.get("k"));
        await server.stop();
        // The first call may see the socket close; every call after it knows Redis is down.
        await cache.get("k").catch(() => {});
        for (let i = 0; i < 5; i++) {
          const ms = await rejectsWithin(i % 2 === 0 ? cache.get("k") : cache.set("k", sampleEntry(1)));
          assert.ok(
            ms < 1_000,
            `an operation while Redis is down took ${ms.toFixed(0)} ms, not failing fast`,
          );
        }
        server = await startRedisServer(server.port);
        let recovered = false;
        for (let i = 0; i < 100 && !recovered; i++) {
          try {
            assert.equal(await cache.get("k"), undefined, "the restarted server (no persistence) is empty");
            recovered = true;
          } catch {
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        assert.ok(recovered, "the cache works again within 10 s of Redis coming back");
        await cache.set("k", sampleEntry(2));
        assert.ok(await cache.get("k"));
      } finally {
        await cache.close();
        await server.stop();
      }
    }));

  test("Redis hung (SIGSTOP): operations reject after timeoutMs, then at once, and recover on SIGCONT", () =>
    noEscapedErrors(async () => {
      const server = await startRedisServer();
      const cache = redisCache(server.url, { timeoutMs: 300 });
      try {
        await cache.set("k", sampleEntry(1));
        process.kill(server.pid as number, "SIGSTOP");
        const first = await rejectsWithin(cache.get("k"));
        assert.ok(first >= 250 && first < 2_000, `the hung call rejected after ${first.toFixed(0)} ms`);
        const next = await rejectsWithin(cache.get("k"));
        assert.ok(next < 100, `right after a timeout a call fails at once (${next.toFixed(0)} ms)`);
        process.kill(server.pid as number, "SIGCONT");
        let recovered = false;
        for (let i = 0; i < 100 && !recovered; i++) {
          recovered = (await cache.get("k").catch(() => undefined)) !== undefined;
          if (!recovered) await new Promise((r) => setTimeout(r, 100));
        }
        assert.ok(recovered, "the entry is read again once Redis answers");
      } finally {
        process.kill(server.pid as number, "SIGCONT");
        await cache.close();
        await server.stop();
      }
    }));

  test("no Redis at all: operations reject at once (refused), close resolves", () =>
    noEscapedErrors(async () => {
      const port = await freePort();
      const cache = redisCache(`redis://127.0.0.1:${port}`, { timeoutMs: 5_000 });
      for (let i = 0; i < 3; i++) {
        const ms = await rejectsWithin(cache.get("k"));
        assert.ok(ms < 1_000, `refused connection took ${ms.toFixed(0)} ms`);
      }
      await cache.close();
      await assert.rejects(cache.get("k"), /closed/);
    }));
});
