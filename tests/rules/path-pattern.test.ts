import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compilePathPattern, matchPathPattern } from "../../src/rules/path-pattern.js";
import { compileRewrite, rewriteQuery } from "../../src/rules/rewrite.js";
import { compileTemplate, fillTemplate } from "../../src/rules/template.js";

function compiled(text: string) {
  const p = compilePathPattern(text);
  if (!p.ok) throw new Error(`${text}: ${p.message}`);
  return p.value;
}

function message(result: { ok: boolean; message?: string }): string {
  assert.equal(result.ok, false, "expected a compile error");
  return result.message ?? "";
}

describe("path patterns", () => {
  it("captures one segment per {name} and tolerates a trailing slash", () => {
    const p = compiled("/{user}/status/{id}");
    assert.deepEqual(p.names, ["user", "id"]);
    assert.deepEqual(matchPathPattern(p, "/jack/status/20"), ["jack", "20"]);
    assert.deepEqual(matchPathPattern(p, "/jack/status/20/"), ["jack", "20"]);
    assert.equal(matchPathPattern(p, "/jack/status/20/photo/1"), undefined);
    assert.equal(matchPathPattern(p, "/jack/status/"), undefined, "a capture is never empty");
  });

  it("a final {name*} takes the rest of the path, possibly nothing", () => {
    const p = compiled("/dp/{asin}/{rest*}");
    assert.deepEqual(matchPathPattern(p, "/dp/B0"), ["B0", ""]);
    assert.deepEqual(matchPathPattern(p, "/dp/B0/"), ["B0", ""]);
    assert.deepEqual(matchPathPattern(p, "/dp/B0/ref=sr_1/x"), ["B0", "ref=sr_1/x"]);
    assert.equal(matchPathPattern(p, "/dpx/B0"), undefined);
    const wayback = compiled("/web/{ts}/{url*}");
    assert.deepEqual(matchPathPattern(wayback, "/web/2020/https://example.com/a/"), [
      "2020",
      "https://example.com/a/",
    ]);
  });

  it("literals are literal: regex characters do not leak", () => {
    const p = compiled("/l.php");
    assert.ok(matchPathPattern(p, "/l.php"));
    assert.equal(matchPathPattern(p, "/lXphp"), undefined);
    const mixed = compiled("/item/{id}.html");
    assert.deepEqual(matchPathPattern(mixed, "/item/42.html"), ["42"]);
    assert.deepEqual(matchPathPattern(compiled("/"), "/"), []);
    assert.equal(matchPathPattern(compiled("/"), "/x"), undefined);
  });

  it("the literal-prefix prefilter never turns away a path the regex accepts (fast-check, fixed seed)", () => {
    const patterns = [
      "/watch",
      "/embed/{id}",
      "/{id}",
      "/amp/s/{target*}",
      "/{rest*}",
      "/dp/{asin}/{rest*}",
      "/{slug}/dp/{asin}/{rest*}",
      "/web/{ts}/{url*}",
      "/item/{id}.html",
      "/",
    ].map(compiled);
    assert.deepEqual(
      patterns.map((p) => p.prefix),
      ["/watch", "/embed/", "/", "/amp/s", "", "/dp/", "/", "/web/", "/item/", "/"],
    );
    const segment = fc.constantFrom(
      "watch",
      "embed",
      "amp",
      "s",
      "dp",
      "web",
      "item",
      "42.html",
      "x",
      "",
      "B0",
    );
    let matched = 0;
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.boolean(), (segments, slash) => {
        const path = `/${segments.join("/")}${slash && segments.length > 0 ? "/" : ""}`;
        for (const p of patterns) {
          const m = p.regex.exec(path);
          const expected = m === null ? undefined : p.names.map((_, i) => m[i + 1] ?? "");
          assert.deepEqual(matchPathPattern(p, path), expected, `${p.source} on ${path}`);
          if (m !== null) matched++;
        }
      }),
      { seed: 20261203, numRuns: 2000 },
    );
    assert.ok(matched > 2000, `only ${matched} matches: the generator must reach the accepting branch`);
  });

  it("rejects malformed patterns with a reason", () => {
    assert.match(message(compilePathPattern("embed/{id}")), /starts with "\/"/);
    assert.match(message(compilePathPattern("/watch?v={id}")), /no query/);
    assert.match(message(compilePathPattern("/a/{id")), /unclosed/);
    assert.match(message(compilePathPattern("/a/id}")), /unmatched/);
    assert.match(message(compilePathPattern("/a/{1d}")), /bad placeholder/);
    assert.match(message(compilePathPattern("/{a}/{a}")), /twice/);
    assert.match(message(compilePathPattern("/{a}{b}")), /separated/);
    assert.match(message(compilePathPattern("/{rest*}/x")), /whole last segment/);
    assert.match(message(compilePathPattern("/x{rest*}")), /whole last segment/);
  });
});

describe("templates and rewrites", () => {
  it("a template may only use the pattern's captures", () => {
    assert.deepEqual(compileTemplate("https://{target}", ["target"]), { ok: true, value: ["https://", 0] });
    assert.match(message(compileTemplate("/watch?v={idd}", ["id"])), /not a capture.*known: id/);
    assert.match(message(compileTemplate("/{rest*}", ["rest"])), /without "\*"/);
    assert.equal(fillTemplate(["/p/", 0, "/"], ["abc"]), "/p/abc/");
  });

  it("a rewrite splits into a path and the parameters it sets", () => {
    const r = compileRewrite("/watch?v={id}&feature", ["id"]);
    assert.ok(r.ok);
    assert.deepEqual(r.value.path, ["/watch"]);
    assert.deepEqual(rewriteQuery(r.value, ["a&b=c+d"]), ["v=a%26b%3Dc%2Bd", "feature"]);
    assert.match(message(compileRewrite("watch", [])), /starts with/);
    assert.match(message(compileRewrite("/a#b", [])), /no fragment/);
    assert.match(message(compileRewrite("/a?{k}=1", ["k"])), /literal/);
    assert.match(message(compileRewrite("/a?x=1&&y=2", [])), /empty query/);
  });
});

describe("capture constraints (issue 14: an ASIN is 10 uppercase letters or digits)", () => {
  it("a constrained capture takes only what its class and count allow", () => {
    const p = compiled("/{slug}/dp/{asin:[A-Z0-9]{10}}/{rest*}");
    assert.deepEqual(matchPathPattern(p, "/Echo/dp/B07PHPXHQS/ref=x"), ["Echo", "B07PHPXHQS", "ref=x"]);
    // Before: any segment was an ASIN, so /comments/dp/dp/2024 became /dp/dp.
    assert.equal(matchPathPattern(p, "/comments/dp/dp/2024"), undefined);
    assert.equal(matchPathPattern(p, "/x/dp/b07phpxhqs"), undefined, "lowercase is not an ASIN");
    assert.equal(matchPathPattern(p, "/x/dp/B07PHPXHQSX"), undefined, "eleven characters");
    const range = compiled("/p/{id:[0-9a-f]{10,12}}");
    assert.ok(matchPathPattern(range, "/p/1a2b3c4d5e"));
    assert.ok(matchPathPattern(range, "/p/1a2b3c4d5e6f"));
    assert.equal(matchPathPattern(range, "/p/1a2b3c4d5e6f7"), undefined);
    assert.ok(matchPathPattern(compiled("/n/{n:[0-9]+}"), "/n/123"));
    assert.ok(matchPathPattern(compiled("/t/{t:[a-z_.~]}"), "/t/~"));
  });

  it("refuses anything but one class and a bounded count, so a rule cannot bring a backtracking regex", () => {
    for (const bad of [
      "/{a:.*}",
      "/{a:[^/]+}",
      "/{a:[a-z]|x}",
      "/{a:([a-z]+)+}",
      "/{a:[z-a]}",
      "/{a:[/]}",
      "/{a:[a-z]{0}}",
      "/{a:[a-z]{3,2}}",
      "/{a:[a-z]*}",
      "/{a:[a-z]{1234}}",
      "/{a:}",
      "/x/{a*:[a-z]}",
      "/{a:[a-z]{2}",
    ])
      assert.equal(compilePathPattern(bad).ok, false, bad);
    assert.match(
      message(compileTemplate("/dp/{asin:[A-Z]{2}}", ["asin"])),
      /constraint in the match pattern/,
    );
  });

  it("a hostile path against a constrained pattern stays linear (structural bound, hang guard)", {
    timeout: 10_000,
  }, () => {
    const p = compiled("/{pub}/{slug}-{id:[0-9a-f]{10,12}}");
    // Many dashes and hex runs: each "-" is one place the slug can end, each tried in O(12).
    const hostile = `/pub/${"-0123456789a".repeat(20_000)}-zz`;
    assert.equal(matchPathPattern(p, hostile), undefined);
    assert.ok(p.regex.source.length < 80, p.regex.source);
  });
});
