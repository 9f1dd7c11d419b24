import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileClearUrls, type DomainRule, defaultRules, normalize } from "../../src/index.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";
import { ruleTextGate } from "../../src/pipeline/rule-text-gate.js";

const pack = compileClearUrls({
  providers: {
    shop: { urlPattern: "^https?:\\/\\/(?:[a-z0-9-]+\\.)*?shop\\.test", rules: ["ref"] },
    global: { urlPattern: ".*", rules: ["trk_[a-z]+"] },
  },
});

describe("ruleTextGate: skipping the URL build for links no rule can claim", () => {
  it("lets through the hosts declarative rules claim and the text the pack acts on, nothing else", () => {
    const gate = ruleTextGate(ruleLookup([...defaultRules, ...pack.rules]));
    assert.ok(gate !== undefined);
    assert.equal(gate("example.com", "https://example.com/a?b=1"), false);
    assert.equal(gate("youtu.be", "https://youtu.be/x"), true); // a built-in's host
    assert.equal(gate("www.youtube.com", "https://www.youtube.com/"), true); // a wildcard domain
    assert.equal(gate("shop.test", "https://shop.test/?ref=1"), true);
    assert.equal(gate("shop.test", "https://shop.test/?id=1"), false); // the pack changes nothing
    assert.equal(gate("example.com", "https://example.com/?trk_x=1"), true);
  });

  it("is absent when a rule is user code, whose match may look at anything", () => {
    const seen: string[] = [];
    const spy: DomainRule = {
      name: "spy",
      match: (url) => {
        seen.push(url.href);
        return false;
      },
      apply: (url) => url,
    };
    const rules = [...defaultRules, ...pack.rules, spy];
    assert.equal(ruleTextGate(ruleLookup(rules)), undefined);
    normalize("https://example.com/a", { rules });
    assert.deepEqual(seen, ["https://example.com/a"]);
  });

  it("the pack still acts through normalize, and a link it leaves alone keeps its form", () => {
    const rules = [...defaultRules, ...pack.rules];
    assert.equal(normalize("https://shop.test/a?ref=1&id=2", { rules }), "https://shop.test/a?id=2");
    assert.equal(normalize("https://example.com/a?trk_zz=1&b=2", { rules }), "https://example.com/a?b=2");
    assert.equal(normalize("https://example.com/a?b=2", { rules }), "https://example.com/a?b=2");
  });
});

describe("resolveNormalizeOptions with only rules", () => {
  it("gives one frozen object per list and preset, equal to the full resolution", () => {
    const rules = [...defaultRules, ...pack.rules];
    const a = resolveNormalizeOptions({ rules });
    assert.equal(resolveNormalizeOptions({ rules }), a);
    assert.ok(Object.isFrozen(a));
    assert.equal(a.rules, resolveNormalizeOptions({ rules, stripFragment: true }).rules);
    const full = resolveNormalizeOptions({ rules, stripFragment: true });
    for (const key of Object.keys(full) as (keyof typeof full)[])
      if (key !== "rules") assert.equal(a[key], full[key], key);
    const rfc = resolveNormalizeOptions({ rules, preset: "rfc3986" });
    assert.notEqual(rfc, a);
    assert.equal(rfc.preset, "rfc3986");
    assert.equal(rfc.sortParams, false);
  });

  it("still checks every entry of a list it has not seen", () => {
    assert.throws(
      () => resolveNormalizeOptions({ rules: [...defaultRules, { name: "x" } as unknown as DomainRule] }),
      TypeError,
    );
    assert.deepEqual(resolveNormalizeOptions({ rules: false }).rules, []);
  });

  it("reads a list when first seen: once compiled, the same array again gives the rules it held", () => {
    const list: DomainRule[] = [...defaultRules, ...pack.rules];
    const url = "https://example.com/a?trk_x=1&b=2";
    assert.equal(normalize(url, { rules: list }), "https://example.com/a?b=2"); // compiles the list
    const first = resolveNormalizeOptions({ rules: list });
    assert.ok(Object.isFrozen(first.rules));
    list.push({ name: "late" } as unknown as DomainRule);
    assert.equal(resolveNormalizeOptions({ rules: list }), first);
    assert.equal(normalize(url, { rules: list }), "https://example.com/a?b=2");
    // A new array is checked entry by entry.
    assert.throws(() => resolveNormalizeOptions({ rules: [...list] }), TypeError);
  });
});
