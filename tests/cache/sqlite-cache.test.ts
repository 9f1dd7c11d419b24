import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { sqliteCache as openCache, type SqliteCacheOptions } from "../../src/cache/sqlite-cache.js";
import { storageKey } from "../../src/cache/storage-key.js";
import { cacheContract, runChild } from "./contract.js";
import { sampleEntry, sampleResolution } from "./sample-entry.js";
import { sqliteDrivers } from "./sqlite-drivers.js";

// Every test below runs once per SQLite library this Node can load (sqlite-drivers.ts says which
// and why any is left out): node:sqlite on 22.13+, better-sqlite3 wherever its addon is built.
for (const { name: driver, open: openRaw } of sqliteDrivers()) {
  const sqliteCache = (path: string, options?: SqliteCacheOptions) => openCache(path, { driver, ...options });

  describe(`sqliteCache (${driver}): the Cache contract`, () => {
    cacheContract(async () => {
      const dir = mkdtempSync(join(tmpdir(), "canonurl-sqlite-contract-"));
      const path = join(dir, "cache.sqlite");
      // Create the file (and its table) so raw access works before the first cache opens it.
      const first = sqliteCache(path);
      await first.delete("init");
      await first.close();
      const raw = openRaw(path, 5_000);
      return {
        name: `sqliteCache (${driver})`,
        open: (options) => sqliteCache(path, options),
        async writeRaw(key, value) {
          raw
            .prepare("INSERT OR REPLACE INTO canonurl_entries (key, value, expires_at) VALUES (?, ?, ?)")
            .run(storageKey(key, true), value, Date.now() + 60_000);
        },
        async rawKeys() {
          return raw.prepare("SELECT key FROM canonurl_entries").pluckAll() as string[];
        },
        childSpec: { backend: "sqlite", target: path, driver },
        async dispose() {
          raw.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    });
  });

  function tempDir(): { dir: string; path: string; [Symbol.dispose](): void } {
    const dir = mkdtempSync(join(tmpdir(), "canonurl-sqlite-"));
    return {
      dir,
      path: join(dir, "cache.sqlite"),
      [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }),
    };
  }

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  describe(`sqliteCache (${driver}): the file`, () => {
    test("is in WAL mode with the entries table, created on the first operation, not at creation", async () => {
      using t = tempDir();
      const cache = sqliteCache(t.path);
      assert.equal(existsSync(t.path), false, "creating the cache touches no file");
      await cache.set("k", sampleEntry(1));
      const raw = openRaw(t.path, 5_000);
      assert.equal(raw.prepare("PRAGMA journal_mode").pluck(), "wal");
      assert.equal(raw.prepare("SELECT count(*) FROM canonurl_entries").pluck(), 1);
      raw.close();
      await cache.close();
    });

    test("a path it cannot open makes operations reject, not the factory throw", async () => {
      using t = tempDir();
      const cache = sqliteCache(join(t.dir, "no", "such", "dir", "cache.sqlite"));
      await assert.rejects(cache.get("k"));
      await assert.rejects(cache.set("k", sampleEntry(1)));
      await cache.close();
      assert.throws(() => sqliteCache(""), TypeError);
      assert.throws(() => sqliteCache(42 as never), TypeError);
      assert.throws(() => sqliteCache(t.path, { retain: 1 } as never), /unknown option "retain"/);
    });

    test("expired rows are pruned from the file (bounded growth), live ones kept", async () => {
      using t = tempDir();
      const writer = sqliteCache(t.path, { retainStaleMs: 0 });
      // One expiry for all 20, far enough ahead that a loaded machine writes them all before it (an
      // entry already expired when written is not stored: with 50 ms each, CI once stored 19).
      const start = Date.now();
      for (let i = 0; i < 20; i++) await writer.set(`short-${i}`, sampleEntry(i, 1_000, start));
      await writer.set("long", sampleEntry(0, 60_000));
      await writer.close();
      const count = () => {
        const raw = openRaw(t.path, 5_000);
        const n = raw.prepare("SELECT count(*) FROM canonurl_entries").pluck();
        raw.close();
        return n;
      };
      assert.equal(count(), 21, "nothing pruned while the short entries were live");
      await sleep(start + 1_050 - Date.now());
      // A process's first set prunes (and then every 1000 sets or minute).
      const next = sqliteCache(t.path, { retainStaleMs: 0 });
      await next.set("new", sampleEntry(1));
      await next.close();
      assert.equal(count(), 2, "the 20 expired rows are gone; 'long' and 'new' remain");
    });
  });

  describe(`sqliteCache (${driver}): a broken file makes operations reject, never crash the process`, () => {
    test("a truncated file: operations reject; removing the file lets the cache work again", async () => {
      using t = tempDir();
      const before = sqliteCache(t.path);
      for (let i = 0; i < 50; i++) await before.set(`k${i}`, sampleEntry(i));
      await before.close();
      truncateSync(t.path, 50);
      const cache = sqliteCache(t.path);
      await assert.rejects(cache.get("k1"), (e: Error & { code?: string }) => /SQLITE/.test(String(e.code)));
      await assert.rejects(cache.set("k1", sampleEntry(1)));
      rmSync(t.path);
      await cache.set("k1", sampleEntry(1));
      assert.ok(await cache.get("k1"), "after a failure the file is opened afresh");
      await cache.close();
    });

    test("a file of garbage: operations reject", async () => {
      using t = tempDir();
      writeFileSync(t.path, Buffer.alloc(8192, 0x5a));
      const cache = sqliteCache(t.path);
      await assert.rejects(cache.get("k"), /not a database/);
      await assert.rejects(cache.set("k", sampleEntry(1)), /not a database/);
      await assert.rejects(cache.delete("k"), /not a database/);
      await cache.close();
    });

    test("a file truncated while open: every operation settles, nothing read is a wrong entry, the damage is seen", async () => {
      using t = tempDir();
      const cache = sqliteCache(t.path);
      for (let i = 0; i < 200; i++) await cache.set(`k${i}`, sampleEntry(i));
      await cache.close();
      const open = sqliteCache(t.path);
      await open.get("k0");
      truncateSync(t.path, 4096);
      // The open connection may still serve pages it holds; what it returns must be right or nothing.
      for (let i = 0; i < 200; i++) {
        const got = await open.get(`k${i}`).catch(() => "rejected" as const);
        if (got !== "rejected" && got !== undefined)
          assert.equal(got.outcome.ok && got.outcome.result.url, sampleResolution(i).url);
      }
      await open.set("after", sampleEntry(1)).catch(() => {});
      await open.close();
      // A fresh connection reads the file as it is now: the lost rows are an error, never a wrong hit.
      const fresh = sqliteCache(t.path);
      let rejected = 0;
      for (let i = 0; i < 200; i++) {
        const got = await fresh.get(`k${i}`).catch(() => "rejected" as const);
        if (got === "rejected") rejected++;
        else if (got !== undefined)
          assert.equal(got.outcome.ok && got.outcome.result.url, sampleResolution(i).url);
      }
      assert.ok(rejected > 0, "the damage was noticed");
      await fresh.close();
    });

    test("a read-only file (and directory): set rejects, get settles, the process exits cleanly", async () => {
      using t = tempDir();
      const before = sqliteCache(t.path);
      await before.set("k", sampleEntry(3));
      await before.close();
      chmodSync(t.path, 0o444);
      chmodSync(t.dir, 0o555);
      try {
        // root writes through file modes, so the probe runs without that privilege (see runChild).
        const result = (await runChild(
          { backend: "sqlite", target: t.path, driver, op: "probe", key: "k" },
          true,
        )) as {
          get: string;
          set: string;
        };
        assert.match(result.set, /^rejected: .*(readonly|read-only|unable to open)/i);
        assert.match(result.get, /^(ok|rejected: )/);
      } finally {
        chmodSync(t.dir, 0o755);
      }
    });
  });
}
