import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compileRules } from "../../src/rules/compile-rules.js";
import type { DomainRule } from "../../src/rules/domain-rule.js";
import { createRuleMatcher } from "../../src/rules/rule-matcher.js";

const declared = (name: string, domains: string[], extra: object = {}): DomainRule => {
  const [rule] = compileRules([{ name, domains, ...extra }]);
  assert.ok(rule);
  return rule;
};
const opaque = (name: string, test: (url: URL) => boolean): DomainRule => ({
  name,
  match: test,
  apply: (u) => u,
});
const nameFor = (find: (url: URL) => DomainRule | undefined, url: string) => find(new URL(url))?.name;

describe("createRuleMatcher", () => {
  it("finds the first matching rule in list order across indexed and opaque rules", () => {
    const rules = [
      declared("a-v1", ["a.example"]),
      opaque("any-b", (u) => u.hostname.endsWith("b.example")),
      declared("b-v1", ["b.example", "*.c.example"]),
      declared("c-v1", ["x.c.example"]),
      opaque("last", () => true),
    ];
    const find = createRuleMatcher(rules);
    assert.equal(nameFor(find, "https://a.example/"), "a-v1");
    assert.equal(
      nameFor(find, "https://b.example/"),
      "any-b",
      "an earlier opaque rule wins over a later indexed one",
    );
    assert.equal(
      nameFor(find, "https://x.c.example/"),
      "b-v1",
      "an earlier wildcard wins over a later exact name",
    );
    assert.equal(nameFor(find, "https://c.example/"), "last", "a wildcard does not claim its apex");
    assert.equal(nameFor(find, "https://deep.y.c.example/"), "b-v1");
    assert.equal(nameFor(find, "https://nobody.example/"), "last");
    assert.equal(createRuleMatcher(rules.slice(0, 4))(new URL("https://nobody.example/")), undefined);
  });

  it("asks match() of the host's candidates, so an unwrap rule that declines lets the next one in", () => {
    const rules = [
      declared("go-v1", ["g.example"], { unwrap: [{ path: "/url", param: "q" }] }),
      declared("g-v1", ["g.example"]),
    ];
    const find = createRuleMatcher(rules);
    assert.equal(nameFor(find, "https://g.example/url?q=https://a.example/"), "go-v1");
    assert.equal(nameFor(find, "https://g.example/search?q=x"), "g-v1");
  });

  it("is built once: later changes to the array do not leak in", () => {
    const rules = [declared("a-v1", ["a.example"])];
    const find = createRuleMatcher(rules);
    rules.length = 0;
    assert.equal(nameFor(find, "https://a.example/"), "a-v1");
  });

  it("agrees with a linear first-match search", () => {
    const hosts = ["a.example", "b.example", "x.b.example", "y.x.b.example", "c.example", "d.example"];
    const entries = ["a.example", "b.example", "*.b.example", "x.b.example", "*.x.b.example", "c.example"];
    // Declared rules found through the host index are asked without a second host lookup
    // (matchOnHost): scoped to paths, unwrapping, or neither, on web and other schemes.
    const shapes = [
      {},
      { pathPatterns: [{ match: "/p", rewrite: "/p" }] },
      { unwrap: [{ path: "/p", param: "to" }] },
    ];
    const ruleArb = fc.oneof(
      fc
        .tuple(
          fc.uniqueArray(fc.constantFrom(...entries), { minLength: 1, maxLength: 3 }),
          fc.constantFrom(...shapes),
        )
        .map(([d, extra]) => ({ kind: "declared" as const, d, extra })),
      fc.constantFrom(...hosts).map((h) => ({ kind: "opaque" as const, h })),
    );
    const tail = fc.constantFrom("/p", "/q", "/p?to=https%3A%2F%2Ft.example%2F", "/p?to=javascript%3Ax");
    let hits = 0;
    let declined = 0;
    fc.assert(
      fc.property(
        fc.array(ruleArb, { maxLength: 6 }),
        fc.constantFrom(...hosts),
        fc.constantFrom("https", "http", "ftp"),
        tail,
        (specs, host, scheme, rest) => {
          // Two copies: a rule remembers its last claim, so the reference asks its own twins.
          const build = () =>
            specs.map((s, i) =>
              s.kind === "declared"
                ? declared(`r${i}-v1`, s.d, s.extra)
                : opaque(`o${i}`, (u) => u.hostname === s.h),
            );
          const rules = build();
          const twins = build();
          const url = new URL(`${scheme}://${host}${rest}`);
          const at = twins.findIndex((r) => r.match(url));
          if (at !== -1) hits++;
          // A rule that claims the host and still declines (scheme, path or no target).
          else if (
            twins.some((r) => "hosts" in r && (r as { hosts: { has(h: string): boolean } }).hosts.has(host))
          )
            declined++;
          assert.equal(createRuleMatcher(rules)(url), at === -1 ? undefined : rules[at]);
        },
      ),
      { seed: 20261202, numRuns: 1000 },
    );
    assert.ok(hits > 150, `a rule matched in ${hits} runs`);
    assert.ok(declined > 100, `a host's rule declined in ${declined} runs`);
  });

  // The candidates are remembered per host name (at most 1,024, names over 253 characters never):
  // answers stay first-match in list order across the memo's clears, for names it keeps and not.
  it("answers the same across the per-host memo's clears and for names it does not keep", () => {
    const find = createRuleMatcher([
      declared("wild-v1", ["*.w.example"], { pathPatterns: [{ match: "/p/{id}", rewrite: "/p/{id}" }] }),
      declared("exact-v1", ["x.w.example", "*.w.example"]),
    ]);
    const long = `${"a".repeat(62)}.${"b".repeat(62)}.${"c".repeat(62)}.${"d".repeat(62)}.w.example`;
    assert.ok(long.length > 253);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3000; i++) {
        assert.equal(nameFor(find, `https://h${i}.w.example/p/1`), "wild-v1");
        assert.equal(nameFor(find, `https://h${i}.w.example/q`), "exact-v1");
      }
      assert.equal(nameFor(find, `https://${long}/p/1`), "wild-v1");
      assert.equal(nameFor(find, `https://${long}/q`), "exact-v1");
      assert.equal(nameFor(find, "https://x.w.example/q"), "exact-v1");
      assert.equal(nameFor(find, "https://w.example/p/1"), undefined);
    }
  });
});
