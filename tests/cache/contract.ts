// ONE contract suite for the Cache interface (architecture.md, testing rule 9): every backend runs
// it unchanged through a harness. Capabilities a store lacks (raw writes into an in-process LRU,
// a second process on a private memory) are the only parts a harness leaves out.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Cache, CacheEntry } from "../../src/cache/cache.js";
import { MAX_ENTRY_CHARS } from "../../src/cache/entry-codec.js";
import { MAX_KEY_CHARS } from "../../src/cache/storage-key.js";
import { errorEntry, sampleEntry, sampleResolution } from "./sample-entry.js";

/** What the contract suite needs from one backend. */
export interface CacheHarness {
  name: string;
  /** A new cache over the harness's store: two caches from one harness see the same entries. */
  open(options?: { retainStaleMs?: number }): Cache;
  /** Writes a value straight into the store under a cache key, bypassing the backend. */
  writeRaw?(key: string, value: string | Buffer): Promise<void>;
  /** Every key in the store, as the store holds it (without the prefix). */
  rawKeys?(): Promise<string[]>;
  /** How another process opens the same store; absent for an in-process store. */
  childSpec?: { backend: "sqlite" | "redis"; target: string; prefix?: string; driver?: string };
  dispose(): Promise<void>;
}

const execFileAsync = promisify(execFile);
const childScript = join(dirname(fileURLToPath(import.meta.url)), "cache-child.js");

/**
 * Runs cache-child.js with a spec; returns the JSON it printed. `honourFileModes` makes a root
 * test process run the child as root without CAP_DAC_OVERRIDE (util-linux `setpriv`), so file modes
 * bind it. Switching to another user instead would need that user to reach the Node binary and the
 * checkout, which a CI layout under /root (Node 22/24 from ~/.cache) does not grant.
 */
export async function runChild(spec: object, honourFileModes = false): Promise<unknown> {
  const args = [childScript, JSON.stringify(spec)];
  const asRoot = honourFileModes && process.getuid?.() === 0;
  const { stdout } = asRoot
    ? await execFileAsync(
        "setpriv",
        ["--bounding-set", "-dac_override,-dac_read_search", "--", process.execPath, ...args],
        { timeout: 30_000 },
      )
    : await execFileAsync(process.execPath, args, { timeout: 30_000 });
  return JSON.parse(stdout);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The canonical URL of a success entry, else undefined. */
function urlOf(entry: CacheEntry | undefined): string | undefined {
  return entry?.outcome.ok ? entry.outcome.result.url : undefined;
}

function isDeepFrozen(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return true;
  if (!Object.isFrozen(v)) return false;
  return Object.values(v).every(isDeepFrozen);
}

async function withCache<T>(
  h: CacheHarness,
  fn: (c: Cache) => Promise<T>,
  options?: { retainStaleMs?: number },
) {
  const cache = h.open(options);
  try {
    return await fn(cache);
  } finally {
    await cache.close();
  }
}

export function cacheContract(makeHarness: () => Promise<CacheHarness>): void {
  let h: CacheHarness;
  before(async () => {
    h = await makeHarness();
  });
  after(async () => {
    await h?.dispose();
  });

  test("a missing key is undefined", () =>
    withCache(h, async (c) => {
      assert.equal(await c.get("missing"), undefined);
    }));

  test("set then get returns an equal entry, deep-frozen, unaffected by later changes to the stored object", () =>
    withCache(h, async (c) => {
      const entry = sampleEntry(1);
      await c.set("round-trip", entry);
      const expected = structuredClone(entry);
      entry.outcome.ok &&
        entry.outcome.result.chain.push({ url: "x", via: "redirect", method: "GET", status: 1 });
      const got = await c.get("round-trip");
      assert.deepEqual(got, expected);
      assert.ok(isDeepFrozen(got), "entries come back deep-frozen");
      const err = errorEntry("redirect-loop");
      await c.set("round-trip-error", err);
      assert.deepEqual(await c.get("round-trip-error"), err);
    }));

  test("a second cache over the same store sees the entry (memoryCache: each cache is its own store)", async () => {
    const first = h.open();
    const second = h.open();
    try {
      await first.set("seen-by-other", sampleEntry(2));
      const got = await second.get("seen-by-other");
      if (h.childSpec === undefined) assert.equal(got, undefined);
      else assert.deepEqual(got, await first.get("seen-by-other"));
    } finally {
      await first.close();
      await second.close();
    }
  });

  test("overwrite: the last set wins", () =>
    withCache(h, async (c) => {
      await c.set("overwrite", sampleEntry(1));
      await c.set("overwrite", errorEntry("timeout"));
      const got = await c.get("overwrite");
      assert.equal(got?.outcome.ok, false);
      assert.equal(!got?.outcome.ok && got?.outcome.error.code, "timeout");
    }));

  test("delete removes the entry; deleting a missing key resolves", () =>
    withCache(h, async (c) => {
      await c.set("deleted", sampleEntry(3));
      await c.delete("deleted");
      assert.equal(await c.get("deleted"), undefined);
      await c.delete("never-there");
    }));

  test("an entry past freshUntil is still returned while retained (freshness is the caller's decision)", () =>
    withCache(h, async (c) => {
      const now = Date.now();
      await c.set("stale", { ...sampleEntry(4, 0, now - 10_000), freshUntil: now - 5_000 });
      const got = await c.get("stale");
      assert.ok(got !== undefined, "a stale entry within retainStaleMs is a hit");
      assert.ok(got.freshUntil < Date.now());
    }));

  test("an entry is gone once freshUntil + retainStaleMs has passed", () =>
    withCache(
      h,
      async (c) => {
        await c.set("expires", sampleEntry(5, 250));
        await c.set("keeps", sampleEntry(5, 60_000));
        assert.ok((await c.get("expires")) !== undefined);
        await sleep(600);
        assert.equal(await c.get("expires"), undefined);
        assert.ok((await c.get("keeps")) !== undefined, "an unexpired neighbour stays");
      },
      { retainStaleMs: 100 },
    ));

  test("setting an entry whose retention already ended removes the key", () =>
    withCache(
      h,
      async (c) => {
        await c.set("past", sampleEntry(6));
        const now = Date.now();
        await c.set("past", { ...sampleEntry(6, 0, now - 5_000), freshUntil: now - 2_000 });
        assert.equal(await c.get("past"), undefined);
      },
      { retainStaleMs: 1_000 },
    ));

  test("set rejects an entry that is not a CacheEntry (TypeError) or too large (RangeError), storing nothing", () =>
    withCache(h, async (c) => {
      await c.set("kept", sampleEntry(7));
      const bad: unknown[] = [
        null,
        "text",
        { outcome: { ok: true }, storedAt: 1, freshUntil: 2 },
        { outcome: { ok: false, error: { code: 1, message: "m" } }, storedAt: 1, freshUntil: 2 },
        { ...sampleEntry(7), freshUntil: Number.NaN },
        { ...sampleEntry(7), freshUntil: Number.POSITIVE_INFINITY },
        {
          ...sampleEntry(7),
          outcome: { ok: true, result: { ...sampleResolution(7), headers: { a: 1 } } },
        },
      ];
      for (const value of bad) {
        await assert.rejects(c.set("kept", value as CacheEntry), TypeError);
        await assert.rejects(c.set("bad-new", value as CacheEntry), TypeError);
      }
      const huge = sampleEntry(7);
      if (huge.outcome.ok) huge.outcome.result.headers["x-huge"] = "x".repeat(MAX_ENTRY_CHARS);
      await assert.rejects(c.set("kept", huge), RangeError);
      assert.ok((await c.get("kept")) !== undefined, "a rejected set leaves the old entry");
      assert.equal(await c.get("bad-new"), undefined);
    }));

  test("keys: unicode, empty, lone surrogates, '#'-prefixed and very long keys are all distinct", () =>
    withCache(h, async (c) => {
      const long = `https://long.test/?${"q".repeat(100_000)}`;
      const keys = [
        "",
        "ключ/日本語/😀",
        "\uD800",
        "\uDC00",
        "\uFFFD",
        "#sha256:abc",
        "#",
        "a\u0000b",
        "a b\r\n*?[]{}",
        `${long}1`,
        `${long}2`,
        "x".repeat(MAX_KEY_CHARS),
        "x".repeat(MAX_KEY_CHARS + 1),
      ];
      for (const [i, key] of keys.entries()) await c.set(key, sampleEntry(100 + i));
      for (const [i, key] of keys.entries()) {
        const got = await c.get(key);
        assert.equal(urlOf(got), sampleResolution(100 + i).url, `key #${i}`);
      }
      if (h.rawKeys !== undefined) {
        const raw = await h.rawKeys();
        assert.ok(
          raw.every((k) => k.length <= MAX_KEY_CHARS + 80),
          "no stored key is longer than the hashing bound",
        );
        assert.ok(raw.includes("x".repeat(MAX_KEY_CHARS)), "a key at the bound is stored as it is");
        assert.ok(raw.includes("ключ/日本語/😀"), "a short key is stored readably");
        assert.ok(
          raw.filter((k) => /^#sha256:[0-9a-f]{64}$/.test(k)).length >= 7,
          "long, '#' and lone-surrogate keys are hashed",
        );
      }
      await assert.rejects(c.get(42 as unknown as string), TypeError);
    }));

  test("many operations in flight at once all settle correctly", () =>
    withCache(h, async (c) => {
      await Promise.all(Array.from({ length: 200 }, (_, i) => c.set(`many-${i}`, sampleEntry(i))));
      const got = await Promise.all(Array.from({ length: 200 }, (_, i) => c.get(`many-${i}`)));
      for (const [i, e] of got.entries()) assert.equal(urlOf(e), sampleResolution(i).url);
    }));

  test("after close, get/set/delete reject and close again resolves", async () => {
    const c = h.open();
    await c.set("closing", sampleEntry(8));
    await c.close();
    await assert.rejects(c.get("closing"), /closed/);
    await assert.rejects(c.set("closing", sampleEntry(8)), /closed/);
    await assert.rejects(c.delete("closing"), /closed/);
    await c.close();
  });

  describe("stored garbage is a miss", () => {
    test("values that are not this format's entries read as undefined, and the key can be set again", async (t) => {
      if (h.writeRaw === undefined) {
        // An in-process store holds only what set() validated; the set() test above covers it.
        t.diagnostic(`${h.name}: no raw access; garbage can only enter through set()`);
        return;
      }
      const garbage: (string | Buffer)[] = [
        "not json",
        '{"v":1,"storedAt":1,"freshUntil"', // truncated
        JSON.stringify({ v: 2, ...sampleEntry(9) }), // another format version
        JSON.stringify(sampleEntry(9)), // no version: foreign
        JSON.stringify({
          v: 1,
          storedAt: "1",
          freshUntil: 2,
          outcome: { ok: false, error: { code: "c", message: "m" } },
        }),
        JSON.stringify({ v: 1, ...sampleEntry(9), outcome: { ok: true, result: { url: "u" } } }),
        "[1,2,3]",
        "",
        Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      ];
      await withCache(h, async (c) => {
        for (const [i, value] of garbage.entries()) {
          await h.writeRaw?.(`garbage-${i}`, value);
          assert.equal(await c.get(`garbage-${i}`), undefined, `garbage #${i}`);
          await c.set(`garbage-${i}`, sampleEntry(9));
          assert.ok((await c.get(`garbage-${i}`)) !== undefined);
        }
      });
    });
  });

  describe("across processes", () => {
    test("an entry written by one process is read by the next one", async (t) => {
      if (h.childSpec === undefined) {
        t.diagnostic(`${h.name}: an in-process store does not outlive its process`);
        return;
      }
      assert.equal(await runChild({ ...h.childSpec, op: "set", key: "restart", n: 11 }), "ok");
      const got = (await runChild({ ...h.childSpec, op: "get", key: "restart" })) as CacheEntry;
      assert.equal(urlOf(got), sampleResolution(11).url);
      await withCache(h, async (c) => assert.deepEqual(await c.get("restart"), got));
    });

    test("two processes writing at once both land every entry", async (t) => {
      if (h.childSpec === undefined) {
        t.diagnostic(`${h.name}: not shared between processes`);
        return;
      }
      const count = 150;
      const results = await Promise.all([
        runChild({ ...h.childSpec, op: "write-many", tag: "a", count }),
        runChild({ ...h.childSpec, op: "write-many", tag: "b", count }),
      ]);
      assert.deepEqual(results, [count, count]);
      await withCache(h, async (c) => {
        for (const tag of ["a", "b"]) {
          for (let i = 0; i < count; i++) {
            const got = await c.get(`${tag}-${i}`);
            assert.equal(urlOf(got), sampleResolution(i).url);
          }
        }
        const shared = await c.get("shared");
        assert.ok(shared?.outcome.ok, "the key both processes overwrote holds a whole entry");
      });
    });
  });
}
