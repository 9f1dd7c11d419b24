// Duplicate-heavy batches through resolveMany with each cache backend, against a local server that
// counts requests: one resolution's worth of requests per distinct URL. And Redis stopped and
// restarted mid-batch: every input answered, none failed because of it.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Cache } from "../../src/cache/cache.js";
import { memoryCache } from "../../src/cache/memory-cache.js";
import { redisCache } from "../../src/cache/redis-cache.js";
import { sqliteCache } from "../../src/cache/sqlite-cache.js";
import { createClient } from "../../src/resolve/client.js";
import type { Outcome } from "../../src/resolve/types.js";
import { type RedisServer, startRedisServer, testRedisUrl } from "../helpers/redis-server.js";
import { seeded, shuffled } from "../helpers/seeded.js";
import { type Site, startSite } from "./site.js";

/** `total` inputs over `distinct` URLs (each at least once), shuffled with a fixed seed. */
function duplicateHeavy(site: Site, group: string, total: number, distinct: number): string[] {
  return shuffled(
    Array.from({ length: total }, (_, i) => site.url(`/d/${group}/${i % distinct}`)),
    seeded(13),
  );
}

async function collect(iterable: AsyncIterable<Outcome>): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for await (const outcome of iterable) out.push(outcome);
  return out;
}

describe("duplicate-heavy batch: 10,000 inputs over 500 distinct URLs", { timeout: 120_000 }, () => {
  let site: Site;
  const perPath = new Map<string, number>();
  let delayMs = 0;
  before(async () => {
    // /d/<group>/<n> → 301 → /p/<group>/<n> → 200 text/plain: two requests per resolution.
    site = await startSite((request, response) => {
      const path = request.url ?? "/";
      perPath.set(path, (perPath.get(path) ?? 0) + 1);
      const send = () => {
        if (path.startsWith("/d/")) {
          response.writeHead(301, { location: `/p/${path.slice(3)}` });
          response.end();
        } else {
          response.writeHead(200, { "content-type": "text/plain" });
          response.end("ok");
        }
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  after(() => site.close());

  const requestsIn = (group: string) =>
    [...perPath].filter(([path]) => path.split("/")[2] === group).reduce((n, [, c]) => n + c, 0);

  async function runBatch(group: string, cache: Cache): Promise<void> {
    const inputs = duplicateHeavy(site, group, 10_000, 500);
    const client = createClient(site.options({ cache }));
    try {
      const outcomes = await collect(client.resolveMany(inputs, { concurrency: 64 }));
      assert.equal(outcomes.length, 10_000);
      const failed = outcomes.filter((o) => !o.ok);
      assert.deepEqual(failed.slice(0, 3), [], `${failed.length} failed`);
      for (const o of outcomes) {
        assert.ok(o.ok && o.result.url === o.input.replace("/d/", "/p/"), `input ${o.index}`);
      }
      const cached = outcomes.filter((o) => o.ok && o.result.cached).length;
      assert.equal(requestsIn(group), 1_000, "exactly two requests (one resolution) per distinct URL");
      for (let n = 0; n < 500; n++) {
        assert.equal(perPath.get(`/d/${group}/${n}`), 1, `/d/${group}/${n} asked once`);
        assert.equal(perPath.get(`/p/${group}/${n}`), 1, `/p/${group}/${n} asked once`);
      }
      // The rest were served by the cache or shared an in-flight resolution.
      assert.ok(cached > 0 && cached <= 9_500, `${cached} cached`);
    } finally {
      await client.close();
    }
  }

  it("memoryCache", () => runBatch("memory", memoryCache()));

  it("sqliteCache", async () => {
    const dir = mkdtempSync(join(tmpdir(), "canonurl-batch-sqlite-"));
    const cache = sqliteCache(join(dir, "cache.sqlite"));
    try {
      await runBatch("sqlite", cache);
    } finally {
      await cache.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("redisCache", async () => {
    const cache = redisCache(testRedisUrl(), { prefix: `batch-${randomUUID()}:` });
    try {
      await runBatch("redis", cache);
    } finally {
      await cache.close();
    }
  });

  it("Redis stopped and restarted mid-batch: every input answered, none failed, the cache used again after", async () => {
    let server: RedisServer = await startRedisServer();
    const prefix = `midbatch-${randomUUID()}:`;
    const cache = redisCache(server.url, { prefix });
    const messages: string[] = [];
    const options = site.options({ cache, logger: { debug: (m) => messages.push(m) } });
    const client = createClient(options);
    delayMs = 2;
    const inputs = duplicateHeavy(site, "outage", 4_000, 400);
    let restarted: Promise<void> | undefined;
    let stoppedAt = -1;
    let restartedAt = -1;
    try {
      const outcomes: Outcome[] = [];
      for await (const outcome of client.resolveMany(inputs, { concurrency: 32 })) {
        outcomes.push(outcome);
        if (outcomes.length === 1_000) {
          stoppedAt = outcomes.length;
          await server.stop();
        }
        if (outcomes.length === 2_000) {
          restartedAt = outcomes.length;
          const port = server.port;
          restarted = startRedisServer(port).then((s) => {
            server = s;
          });
        }
      }
      await restarted;
      assert.equal(stoppedAt, 1_000);
      assert.equal(restartedAt, 2_000);
      assert.equal(outcomes.length, 4_000);
      const failed = outcomes.filter((o) => !o.ok);
      assert.equal(failed.length, 0, `failed: ${failed.slice(0, 3).map((o) => !o.ok && o.error.message)}`);
      assert.deepEqual(
        outcomes.map((o) => o.index).sort((a, b) => a - b),
        inputs.map((_, i) => i),
        "every input answered once",
      );
      const told = messages.filter((m) => m.startsWith("cache "));
      assert.equal(told.length, 1, `the outage is logged once: ${JSON.stringify(told)}`);
      // After the bypass window, a new client on the restarted (empty) Redis stores and finds again.
      await new Promise((r) => setTimeout(r, 1_200));
      const writer = createClient(site.options({ cache }));
      const readerCache = redisCache(server.url, { prefix });
      const reader = createClient(site.options({ cache: readerCache }));
      assert.equal((await writer.resolve(site.url("/d/after/1"))).cached, false);
      await writer.close();
      assert.equal(
        (await reader.resolve(site.url("/d/after/1"))).cached,
        true,
        "the entry is in Redis again",
      );
      await reader.close();
      await readerCache.close();
    } finally {
      delayMs = 0;
      await client.close();
      await cache.close();
      await restarted?.catch(() => {});
      await server.stop();
    }
  });
});

describe("duplicates of a resolution in flight do not hold resolveMany's slots", { timeout: 60_000 }, () => {
  it("concurrency 4: four distinct slow URLs reach the server together while 40 copies of one wait", async () => {
    // Each request is held until four distinct paths wait at once (or 5 s pass): a batch whose
    // slots were held by the copies of /slow/a would reach one at a time and be released by the
    // fallback only.
    const held: (() => void)[] = [];
    const waitingPaths = new Set<string>();
    let mostAtOnce = 0;
    let releasedByFallback = false;
    const releaseAll = () => {
      for (const send of held.splice(0)) send();
    };
    const site = await startSite((request, response) => {
      const path = request.url ?? "/";
      waitingPaths.add(path);
      mostAtOnce = Math.max(mostAtOnce, waitingPaths.size);
      held.push(() => {
        waitingPaths.delete(path);
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("ok");
      });
      if (waitingPaths.size >= 4) releaseAll();
    });
    const fallback = setInterval(() => {
      if (held.length > 0) {
        releasedByFallback = true;
        releaseAll();
      }
    }, 5_000);
    const cache = memoryCache();
    const client = createClient(site.options({ cache }));
    try {
      const inputs = [
        ...Array.from({ length: 40 }, () => site.url("/slow/a")),
        site.url("/slow/b"),
        site.url("/slow/c"),
        site.url("/slow/d"),
      ];
      const outcomes = await collect(client.resolveMany(inputs, { concurrency: 4 }));
      assert.equal(outcomes.length, inputs.length);
      assert.ok(
        outcomes.every((o) => o.ok),
        "every input resolved",
      );
      assert.equal(mostAtOnce, 4, "all four distinct URLs were in flight at once");
      assert.equal(releasedByFallback, false, "no request waited for the fallback release");
      assert.equal(site.log.length, 4, `one request per distinct URL: ${site.log.join(", ")}`);
    } finally {
      clearInterval(fallback);
      releaseAll();
      await client.close();
      await cache.close();
      await site.close();
    }
  });
});
