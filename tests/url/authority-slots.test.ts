import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalize } from "../../src/index.js";
import { authoritySlot, serializedAuthority } from "../../src/url/serialized-host.js";

// serializedAuthority answers a link from a direct-mapped slot when the slot's text is the link's
// authority. Two texts that share a slot must each get their own answer: the slot is a guess,
// checked on the link's characters and length.

const slotOf = (text: string) => authoritySlot(text, text.length);

// The first pair of distinct texts from `make` that share a slot.
function sharingPair(make: (i: number) => [string, string]): [string, string] {
  for (let i = 0; i < 200_000; i++) {
    const [a, b] = make(i);
    if (slotOf(a) === slotOf(b)) return [a, b];
  }
  throw new Error("no pair shares a slot");
}

describe("the authority slots", () => {
  it("answer each of two texts of one length that share a slot with its own record", () => {
    const byslot = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 1000; pair === undefined && i < 10_000; i++) {
      const text = `https://h${i}.example.test`;
      const other = byslot.get(slotOf(text));
      if (other !== undefined) pair = [other, text];
      else byslot.set(slotOf(text), text);
    }
    assert.ok(pair !== undefined, "no two texts of one length share a slot");
    const [a, b] = pair;
    assert.equal(a.length, b.length);
    assert.equal(slotOf(a), slotOf(b));
    // Alternating: each link finds the other's record in the slot first.
    for (let round = 0; round < 3; round++)
      for (const text of [a, b]) {
        for (const link of [`${text}/p?q=1`, `${text}?q`, text]) {
          const record = serializedAuthority(link);
          assert.equal(record?.hostname, text.slice(8), link);
          assert.equal(record?.end, text.length, link);
          assert.equal(normalize(`${text}/x`), `${text}/x`);
        }
      }
    // A link with no "/" after its authority (its end found by the regex) meeting the other text
    // in the slot, each way round.
    for (const [held, asked] of [
      [a, b],
      [b, a],
    ] as const) {
      serializedAuthority(`${held}/x`);
      for (const link of [`${asked}?q=1`, asked, `${asked}#f`]) {
        serializedAuthority(`${held}/x`);
        assert.equal(serializedAuthority(link)?.hostname, asked.slice(8), link);
      }
    }
  });

  it("do not answer a link whose authority only starts with the slot's text", () => {
    // "https://aN.test" and "https://aN.testq": the shorter text is a prefix of the longer one.
    const [a, b] = sharingPair((i) => [`https://a${i}.test`, `https://a${i}.testq`]);
    assert.ok(b.startsWith(a));
    for (let round = 0; round < 3; round++) {
      assert.equal(serializedAuthority(`${a}/x`)?.hostname, a.slice(8));
      assert.equal(serializedAuthority(`${b}/x`)?.hostname, b.slice(8));
      assert.equal(normalize(`${b}/x`), `${b}/x`);
      assert.equal(normalize(`${a}/x`), `${a}/x`);
      // Its end found by the regex (no "/" after it), the longer one meets the shorter in the slot.
      serializedAuthority(`${a}/x`);
      assert.equal(serializedAuthority(`${b}?q`)?.hostname, b.slice(8));
    }
  });

  it("read the authority where a query comes before the first slash", () => {
    // The slot is guessed at the first "/" after the scheme; here that "/" is in the query.
    serializedAuthority("https://q.test/");
    const record = serializedAuthority("https://q.test?next=/a");
    assert.equal(record?.end, "https://q.test".length);
    assert.equal(normalize("https://q.test?next=/a"), "https://q.test/?next=/a");
  });

  it("spell a respelled authority from its own record", () => {
    // One host in three spellings: each is its own text, and each gets the parser's spelling.
    for (let round = 0; round < 2; round++)
      for (const text of ["https://example.test", "HTTPS://Example.test", "Https://EXAMPLE.test:443"]) {
        const record = serializedAuthority(`${text}/a`);
        assert.equal(record?.prefix, "https://example.test", text);
        assert.equal(record?.text, text);
        assert.equal(record?.serialized, text === "https://example.test", text);
      }
  });
});
