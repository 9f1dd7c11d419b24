import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DomainRule, defaultRules, normalize } from "../../src/index.js";
import { internRules, RECENT_LISTS, ruleLookup } from "../../src/pipeline/rule-lookup.js";
import { compileRules } from "../../src/rules/load-rules.js";

// Each call makes new rule objects: lists built from them share no identity with any other.
function userRules(tag: string, n = 3): DomainRule[] {
  return compileRules(
    Array.from({ length: n }, (_, i) => ({
      name: `${tag}-${i}-v1`,
      domains: [`${tag}${i}.test`, `www.${tag}${i}.test`],
      canonicalHost: `www.${tag}${i}.test`,
    })),
  );
}

describe("the compiled-matcher cache", () => {
  it("a list rebuilt with the same rule objects finds the lookup compiled for the first", () => {
    const mine = userRules("same");
    const first = ruleLookup(internRules([...mine, ...defaultRules]));
    const again = ruleLookup(internRules([...mine, ...defaultRules]));
    assert.equal(again, first, "a rebuilt list must not be compiled again");
    assert.equal(ruleLookup([...mine, ...defaultRules]), first, "found by content without internRules too");
    // The rules are the caller's, in the caller's order: another order is another list.
    assert.notEqual(ruleLookup(internRules([...defaultRules, ...mine])), first);
    assert.equal(
      normalize("http://same1.test/a", { rules: [...mine, ...defaultRules] }),
      "http://www.same1.test/a",
    );
  });

  it("equal-looking but different rule objects are different lists", () => {
    const a = userRules("twin");
    const b = userRules("twin");
    assert.notEqual(ruleLookup([...a]), ruleLookup([...b]));
  });

  it(`holds at most ${RECENT_LISTS} lists by content: the oldest is dropped, the newest kept`, () => {
    const lists = Array.from({ length: RECENT_LISTS + 1 }, (_, i) => userRules(`bound${i}x`));
    const compiled = lists.map((list) => ruleLookup([...list]));
    assert.equal(new Set(compiled).size, lists.length);
    // The first list was pushed out by the later ones: a copy of it is compiled again.
    const [oldest] = lists;
    assert.ok(oldest);
    assert.notEqual(ruleLookup([...oldest]), compiled[0]);
    // That compile took a slot, evicting the second oldest; the rest are all still found.
    for (let i = 2; i < lists.length; i++)
      assert.equal(ruleLookup([...(lists[i] as DomainRule[])]), compiled[i]);
    assert.notEqual(ruleLookup([...(lists[1] as DomainRule[])]), compiled[1]);
  });

  it("a list looked up once keeps its rules even if the caller's array is mutated afterwards", () => {
    const [one, two, three] = userRules("mut");
    assert.ok(one && two && three);
    const list = [one, two];
    ruleLookup(internRules(list));
    list[1] = three;
    // A copy of the mutated array holds other rules: it gets its own lookup, with "mut2" in it.
    assert.equal(normalize("http://mut2.test/a", { rules: [...list] }), "http://www.mut2.test/a");
    assert.equal(normalize("http://mut1.test/a", { rules: [...list] }), "http://mut1.test/a");
  });

  it("every entry is still checked: a bad entry after a cached prefix is a TypeError naming it", () => {
    const mine = userRules("check");
    ruleLookup(internRules([...mine, ...defaultRules]));
    const bad = [...mine, ...defaultRules] as unknown[];
    bad[mine.length + 1] = { name: "not-a-rule" };
    assert.throws(
      () => normalize("http://check0.test/", { rules: bad as DomainRule[] }),
      (e: unknown) => e instanceof TypeError && e.message.includes(`"rules"[${mine.length + 1}]`),
    );
  });

  it("with many wildcard domains the host prefilter still finds every subdomain, and only those", () => {
    const wild = compileRules(
      Array.from({ length: 40 }, (_, i) => ({
        name: `wild-${i}-v1`,
        domains: [`*.w${i}.test`],
        pathPatterns: [{ match: "/old/{id}", rewrite: "/new/{id}" }],
      })),
    );
    const lookup = ruleLookup(wild);
    assert.equal(lookup.mayMatch("a.w7.test"), true);
    assert.equal(lookup.mayMatch("x.y.w39.test"), true);
    assert.equal(lookup.mayMatch(`${"a.".repeat(30_000)}w0.test`), true);
    assert.equal(lookup.mayMatch("w7.test"), false, "*.w7.test claims proper subdomains only");
    assert.equal(lookup.mayMatch("a.w7.test.evil"), false);
    assert.equal(lookup.mayMatch("aw7.test"), false);
    assert.equal(normalize("https://deep.w12.test/old/5", { rules: wild }), "https://deep.w12.test/new/5");
  });
});
