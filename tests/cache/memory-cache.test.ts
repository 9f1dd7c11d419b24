import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { memoryCache } from "../../src/cache/memory-cache.js";
import { cacheContract } from "./contract.js";
import { sampleEntry } from "./sample-entry.js";

describe("memoryCache: the Cache contract", () => {
  cacheContract(async () => ({
    name: "memoryCache",
    open: (options) => memoryCache(options),
    dispose: async () => {},
  }));
});

describe("memoryCache bounds", () => {
  test("maxEntries: the least recently used entry goes first, never more than the bound", async () => {
    const cache = memoryCache({ maxEntries: 3 });
    for (const k of ["a", "b", "c"]) await cache.set(k, sampleEntry(1));
    assert.ok(await cache.get("a")); // a is now the most recently used
    await cache.set("d", sampleEntry(1));
    await cache.set("e", sampleEntry(1));
    const present = [];
    for (const k of ["a", "b", "c", "d", "e"]) if ((await cache.get(k)) !== undefined) present.push(k);
    assert.deepEqual(present, ["a", "d", "e"]);
    await cache.close();
  });

  test("the default bound is 10000 entries", async () => {
    const cache = memoryCache();
    for (let i = 0; i <= 10_000; i++) await cache.set(`k${i}`, sampleEntry(1));
    assert.equal(await cache.get("k0"), undefined, "the 10001st entry pushed out the first");
    assert.ok(await cache.get("k1"));
    assert.ok(await cache.get("k10000"));
    await cache.close();
  });

  test("maxBytes: large entries push others out; one larger than the bound is not stored", async () => {
    const size = JSON.stringify({ v: 1, ...sampleEntry(1) }).length * 2;
    const cache = memoryCache({ maxBytes: size * 2 + 10 });
    for (const k of ["a", "b", "c"]) await cache.set(k, sampleEntry(1));
    assert.equal(await cache.get("a"), undefined);
    assert.ok(await cache.get("b"));
    assert.ok(await cache.get("c"));
    const big = sampleEntry(1);
    if (big.outcome.ok) big.outcome.result.headers.big = "x".repeat(size * 2);
    await cache.set("big", big);
    assert.equal(await cache.get("big"), undefined);
    await cache.close();
  });

  test("options are validated: unknown names and wrong types are TypeErrors naming the option", () => {
    assert.throws(() => memoryCache({ maxEntry: 3 } as never), /unknown option "maxEntry"/);
    assert.throws(() => memoryCache({ maxEntries: 0 }), /"maxEntries"/);
    assert.throws(() => memoryCache({ maxEntries: 1.5 }), TypeError);
    assert.throws(() => memoryCache({ retainStaleMs: -1 }), /"retainStaleMs"/);
    assert.throws(() => memoryCache("x" as never), TypeError);
  });
});
