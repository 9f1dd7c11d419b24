import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileRules } from "../../src/rules/compile-rules.js";
import type { DeclarativeRule } from "../../src/rules/declarative-rule.js";
import type { DeclaredRule } from "../../src/rules/declared-rule.js";

function rule(declaration: Partial<DeclarativeRule>): DeclaredRule {
  const [compiled] = compileRules([
    { name: "t-v1", domains: ["t.example", "www.t.example"], ...declaration },
  ]);
  assert.ok(compiled);
  return compiled;
}

const applied = (r: DeclaredRule, url: string): string => String(r.apply(new URL(url)));

describe("a declared rewriting rule", () => {
  it("claims only its hosts, over http(s); apply is total", () => {
    const r = rule({ canonicalHost: "www.t.example" });
    assert.equal(r.match(new URL("https://t.example/a")), true);
    assert.equal(r.match(new URL("https://sub.t.example/a")), false, "exact names do not claim subdomains");
    assert.equal(r.match(new URL("ftp://t.example/a")), false);
    const other = new URL("https://other.example/a?x=1");
    assert.equal(r.apply(other), other);
    assert.equal(other.href, "https://other.example/a?x=1", "an unclaimed URL comes back unchanged");
  });

  it("canonicalHost and canonicalScheme replace host and scheme and drop the port", () => {
    const r = rule({ canonicalHost: "www.t.example", canonicalScheme: "https" });
    assert.equal(applied(r, "http://t.example:8080/a?b=1"), "https://www.t.example/a?b=1");
    assert.equal(applied(rule({ canonicalScheme: "http" }), "https://t.example/a"), "http://t.example/a");
  });

  it("{domain} in canonicalHost is the shortest claimed parent of the host", () => {
    const [r] = compileRules([
      {
        name: "s-v1",
        domains: ["shop.example", "*.shop.example", "shop.co.example"],
        canonicalHost: "www.{domain}",
      },
    ]);
    assert.ok(r);
    assert.equal(applied(r, "https://a.b.shop.example/x"), "https://www.shop.example/x");
    assert.equal(applied(r, "https://shop.co.example/x"), "https://www.shop.co.example/x");
  });

  it("keepParams is an allowlist; kept pairs keep their encoding; stripParams are left to the pipeline", () => {
    const r = rule({ keepParams: ["v"], stripParams: ["v2"] });
    assert.equal(
      applied(r, "https://t.example/watch?a=1&v=x%2Fy&b&v=2"),
      "https://t.example/watch?v=x%2Fy&v=2",
    );
    assert.equal(applied(r, "https://t.example/watch?a=1"), "https://t.example/watch");
    const s = rule({ stripParams: ["utm_*", "t"] });
    assert.deepEqual(s.stripParams, ["utm_*", "t"]);
    assert.equal(applied(s, "https://t.example/a?t=1&utm_x=2"), "https://t.example/a?t=1&utm_x=2");
    assert.equal(rule({}).stripParams, undefined);
  });

  it("the first matching path pattern rewrites the path and may set parameters", () => {
    // x is kept too: a rewrite that sets a parameter its own allowlist drops would never settle
    // (the load-time probe refuses it).
    const r = rule({
      keepParams: ["v", "x"],
      pathPatterns: [
        { match: "/embed/{id}", rewrite: "/watch?v={id}" },
        { match: "/embed/{id}/{rest*}", rewrite: "/never" },
        { match: "/s/{id}/{rest*}", rewrite: "/watch?v={id}&x=1" },
      ],
    });
    assert.equal(applied(r, "https://t.example/embed/abc?start=3&v=old"), "https://t.example/watch?v=abc");
    // Parameters the rewrite sets are exempt from the allowlist; an existing one of that name is replaced.
    assert.equal(
      applied(r, "https://t.example/s/abc/more/stuff?v=old&q=1"),
      "https://t.example/watch?v=abc&x=1",
    );
    // Issue 22: a path no pattern declares is not the rule's: its allowlist does not apply there.
    assert.equal(applied(r, "https://t.example/other?q=1"), "https://t.example/other?q=1");
    assert.equal(r.match(new URL("https://t.example/other?q=1")), false);
  });

  it("a pattern restricted to hosts applies only there", () => {
    // The rewrite moves to the long host, where "/{id}" no longer applies: staying on the short
    // one, "/watch" would be read as an id on the next normalize (the load-time probe refuses that).
    const r = rule({
      domains: ["t.example", "short.example"],
      canonicalHost: "t.example",
      pathPatterns: [{ match: "/{id}", rewrite: "/watch?v={id}", hosts: ["short.example"] }],
    });
    assert.equal(applied(r, "https://short.example/abc"), "https://t.example/watch?v=abc");
    assert.equal(applied(r, "https://t.example/feed"), "https://t.example/feed");
  });

  it("strips fragments unless declared kept; exposes what it keeps as keepFragment", () => {
    const plain = rule({});
    assert.equal(plain.keepFragment, undefined);
    assert.equal(applied(plain, "https://t.example/a#x"), "https://t.example/a");

    const all = rule({ stripFragment: false });
    assert.ok(all.keepFragment?.test("anything at all"));
    assert.equal(applied(all, "https://t.example/a#x"), "https://t.example/a#x");

    const lines = rule({ keepFragment: "L\\d+" });
    assert.ok(lines.keepFragment?.test("L10"));
    assert.equal(lines.keepFragment?.test("xL10"), false, "the pattern is anchored");
    assert.equal(applied(lines, "https://t.example/a#L10"), "https://t.example/a#L10");
    assert.equal(applied(lines, "https://t.example/a#L10x"), "https://t.example/a");

    const files = rule({ keepFragment: { pattern: "L\\d+", paths: ["/{o}/{r}/blob/{p*}"] } });
    assert.equal(
      applied(files, "https://t.example/o/r/blob/main/x.ts#L3"),
      "https://t.example/o/r/blob/main/x.ts#L3",
    );
    assert.equal(applied(files, "https://t.example/o/r/tree/main#L3"), "https://t.example/o/r/tree/main");
  });

  it("is frozen", () => {
    const r = rule({});
    assert.ok(Object.isFrozen(r));
    assert.throws(() => {
      (r as { name: string }).name = "x";
    }, TypeError);
  });
});

describe("a declared unwrap rule", () => {
  const r = rule({
    unwrap: [
      { path: "/go", param: "u" },
      { path: "/go", param: "url" },
      { path: "/s/{rest*}", target: "https://{rest}", keepQuery: true },
      { path: "/p/{rest*}", target: "https://{rest}" },
    ],
  });

  it("returns the target as a string, form-decoded from a parameter", () => {
    assert.equal(
      r.apply(new URL("https://t.example/go?u=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&h=z")),
      "https://a.example/x?y=1",
    );
    assert.equal(r.apply(new URL("https://t.example/go?u=https://a.example/a+b")), "https://a.example/a%20b");
    assert.equal(r.apply(new URL("https://t.example/go?u=&url=https://b.example/")), "https://b.example/");
  });

  it("builds the target from path captures, carrying the query only when told", () => {
    assert.equal(r.apply(new URL("https://t.example/s/a.example/x?q=1")), "https://a.example/x?q=1");
    assert.equal(r.apply(new URL("https://t.example/p/a.example/x?q=1")), "https://a.example/x");
  });

  it("claims a link only when it carries an http(s) target; otherwise leaves it alone", () => {
    for (const url of [
      "https://t.example/go?u=javascript:alert(1)",
      "https://t.example/go?u=/relative",
      "https://t.example/go?u=mailto:a@b.example",
      "https://t.example/go",
      "https://t.example/s/",
      "https://t.example/elsewhere?u=https://a.example/",
    ]) {
      const input = new URL(url);
      assert.equal(r.match(input), false, url);
      assert.equal(r.apply(input), input, url);
    }
    assert.equal(r.match(new URL("https://t.example/go?u=https://a.example/")), true);
  });
});

describe("nested wrappers of one kind", () => {
  const r = rule({ unwrap: [{ path: "/go", param: "u" }] });
  const wrap = (target: string) => `https://t.example/go?u=${encodeURIComponent(target)}`;

  it("are peeled to the first target the rule does not claim", () => {
    assert.equal(r.apply(new URL(wrap(wrap(wrap("https://a.example/x"))))), "https://a.example/x");
  });

  it("stop at the innermost wrapper that carries no target", () => {
    assert.equal(
      r.apply(new URL(wrap("https://t.example/go?u=ftp://a.example/"))),
      "https://t.example/go?u=ftp://a.example/",
    );
  });

  it("are peeled a bounded number of times", () => {
    let url = "https://a.example/x";
    for (let i = 0; i < 10; i++) url = wrap(url);
    const out = String(r.apply(new URL(url)));
    assert.ok(out.startsWith("https://t.example/go?u="), "a deep chain is not followed to the end");
  });
});
