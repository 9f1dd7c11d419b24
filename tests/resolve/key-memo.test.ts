// The client's memo of input → cache key: exact (the key computed for an input, remembered or not),
// bounded in entries and input length, and a hot input survives a stream of others.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createKeyMemo, KEY_MEMO_ENTRIES, KEY_MEMO_INPUT_CHARS } from "../../src/resolve/key-memo.js";

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
});
