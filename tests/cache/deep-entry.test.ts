import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { decodeEntry, encodeEntry, MAX_ENTRY_CHARS, MAX_ENTRY_DEPTH } from "../../src/cache/entry-codec.js";
import { sqliteCache } from "../../src/cache/sqlite-cache.js";
import { tempDir } from "../helpers/temp-dir.js";
import { errorEntry, sampleEntry } from "./sample-entry.js";

// Issue 23, item 5: a stored row with a field nested 100,000 deep (under the size limit)
// overflowed the stack while it was frozen, so every read of its key looked like a cache that is
// down instead of a miss.

// An entry whose outcome carries an unknown field (kept, as a later version's field would be).
function storedWithExtra(extra: string): string {
  return encodeEntry(errorEntry("http-status")).replace('"ok":false', `"ok":false,"extra":${extra}`);
}

describe("a stored row the decoder cannot read safely is a miss (issue 23)", () => {
  it("nesting past MAX_ENTRY_DEPTH, even 100,000 deep, decodes to undefined and never throws", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    assert.ok(storedWithExtra(deep).length < MAX_ENTRY_CHARS, "under the size limit");
    assert.equal(decodeEntry(storedWithExtra(deep)), undefined);
    const objects = storedWithExtra(`${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`);
    assert.equal(decodeEntry(objects), undefined);
  });

  it("the limit is where it says: an extra field just inside it decodes, one level more does not", () => {
    // The entry is level 1 and its outcome level 2; "extra" in the outcome may nest the rest.
    const nest = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    assert.notEqual(decodeEntry(storedWithExtra(nest(MAX_ENTRY_DEPTH - 2))), undefined);
    assert.equal(decodeEntry(storedWithExtra(nest(MAX_ENTRY_DEPTH - 1))), undefined);
    // An honest entry is far inside it.
    const honest = sampleEntry(3);
    assert.deepEqual(decodeEntry(encodeEntry(honest)), honest);
  });

  it("through a real SQLite file: get() answers undefined for the deep row, and the other keys still read", async () => {
    const path = join(tempDir("canonurl-deep-"), "c.sqlite");
    const cache = sqliteCache(path);
    const good = sampleEntry(1);
    await cache.set("good", good);
    const db = new Database(path);
    db.prepare("INSERT OR REPLACE INTO canonurl_entries (key, value, expires_at) VALUES (?, ?, ?)").run(
      "deep",
      storedWithExtra(`${"[".repeat(100_000)}${"]".repeat(100_000)}`),
      Date.now() + 3_600_000,
    );
    db.close();
    for (let i = 0; i < 3; i++) assert.equal(await cache.get("deep"), undefined);
    assert.deepEqual(await cache.get("good"), good);
    await cache.close();
  });
});
