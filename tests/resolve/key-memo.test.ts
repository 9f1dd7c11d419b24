// The client's memo of input → cache key: exact (the key computed for an input, remembered or not),
// bounded in entries and input length, and a hot input survives a stream of others.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import {
  createKeyMemo,
  KEY_MEMO_ENTRIES,
  KEY_MEMO_INPUT_CHARS,
  KEY_MEMO_KEY_CHARS,
} from "../../src/resolve/key-memo.js";

/** A memo over a compute that counts its calls per input. */
function counted() {
  const calls = new Map<string, number>();
  const memo = createKeyMemo((input) => {
    calls.set(input, (calls.get(input) ?? 0) + 1);
    return input.startsWith("bad") ? undefined : `key:${input.trim()}`;
  });
  return { memo, calls: (input: string) => calls.get(input) ?? 0 };
}

describe("key memo", () => {
  it("gives what compute gives, and computes a repeated input once (undefined keys too)", () => {
    const { memo, calls } = counted();
    for (let i = 0; i < 5; i++) {
      assert.equal(memo.keyOf(" a "), "key:a");
      assert.equal(memo.keyOf("bad input"), undefined);
    }
    assert.equal(calls(" a "), 1);
    assert.equal(calls("bad input"), 1);
  });

  it("forgets an input once KEY_MEMO_ENTRIES others came after it, and holds no more than that", () => {
    const { memo, calls } = counted();
    memo.keyOf("first");
    for (let i = 0; i < KEY_MEMO_ENTRIES; i++) memo.keyOf(`other ${i}`);
    assert.equal(memo.keyOf("first"), "key:first");
    assert.equal(calls("first"), 2, "computed again: forgotten");
    // The latest half is always remembered.
    const before = calls(`other ${KEY_MEMO_ENTRIES - 1}`);
    memo.keyOf(`other ${KEY_MEMO_ENTRIES - 1}`);
    assert.equal(calls(`other ${KEY_MEMO_ENTRIES - 1}`), before);
  });

  it("an input asked for again and again stays remembered through any number of others", () => {
    const { memo, calls } = counted();
    for (let i = 0; i < KEY_MEMO_ENTRIES * 5; i++) {
      memo.keyOf(`other ${i}`);
      if (i % (KEY_MEMO_ENTRIES / 4) === 0) memo.keyOf("hot");
    }
    assert.equal(calls("hot"), 1);
  });

  it("inputs longer than KEY_MEMO_INPUT_CHARS are computed every time (memory bound)", () => {
    const { memo, calls } = counted();
    const long = `x${"y".repeat(KEY_MEMO_INPUT_CHARS)}`;
    const edge = "z".repeat(KEY_MEMO_INPUT_CHARS);
    for (let i = 0; i < 3; i++) {
      assert.equal(memo.keyOf(long), `key:${long}`);
      memo.keyOf(edge);
    }
    assert.equal(calls(long), 3);
    assert.equal(calls(edge), 1);
  });

  it("keys longer than KEY_MEMO_KEY_CHARS are computed every time (a short input can have a long key)", () => {
    let calls = 0;
    const memo = createKeyMemo((input) => {
      calls++;
      return input.repeat(KEY_MEMO_KEY_CHARS);
    });
    for (let i = 0; i < 3; i++) memo.keyOf("ab");
    assert.equal(calls, 3);
  });

  it("holds at most about 12 MiB when full of the largest inputs and keys it keeps", () => {
    // Its own process with the collector exposed: heap used before and after filling the memo
    // with KEY_MEMO_ENTRIES two-byte inputs and keys at their bounds (the most it ever holds).
    const memoUrl = new URL("../../src/resolve/key-memo.js", import.meta.url).href;
    const script = `
      const { createKeyMemo, KEY_MEMO_ENTRIES, KEY_MEMO_INPUT_CHARS, KEY_MEMO_KEY_CHARS } = await import(${JSON.stringify(memoUrl)});
      globalThis.gc();
      const before = process.memoryUsage().heapUsed;
      const memo = createKeyMemo((input) => ("\u0436" + input + input).slice(0, KEY_MEMO_KEY_CHARS));
      for (let i = 0; i < KEY_MEMO_ENTRIES; i++) memo.keyOf(("\u0436" + i).padEnd(KEY_MEMO_INPUT_CHARS, "\u0436"));
      globalThis.gc();
      globalThis.kept = memo;
      console.log(process.memoryUsage().heapUsed - before);`;
    const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const mib = Number(r.stdout.trim()) / 2 ** 20;
    // Lower bound: the entries were really kept. Upper: 4,096 × 3 KiB of text is 12 MiB with no
    // sharing at all (Node 26 measured 12.41: its V8 copies the sliced keys; Node 20 10.4), plus
    // the two maps' own entries; more than 14 would mean something beyond the bounds is kept.
    assert.ok(mib > 4 && mib < 14, `${mib.toFixed(2)} MiB`);
  });
});
