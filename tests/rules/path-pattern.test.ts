import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  compileCaptureCheck,
  compilePathPattern,
  matchPathPattern,
  passesCheck,
  slashesFit,
} from "../../src/rules/path-pattern.js";
import { compileRewrite, rewriteQuery } from "../../src/rules/rewrite.js";
import { compileTemplate, fillTemplate } from "../../src/rules/template.js";

function compiled(text: string) {
  const p = compilePathPattern(text);
  if (!p.ok) throw new Error(`${text}: ${p.message}`);
  return p.value;
}

// The regular expression the patterns compiled to before the linear matcher: the reference the
// matcher must agree with on every path (it backtracks, so it only ever sees short paths here).
function referenceRegex(text: string): RegExp {
  const escapeLiteral = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let body = "";
  let rest = false;
  // A placeholder, with its constraint (`{asin:[A-Z0-9]{10}}`) taken into the capture as written.
  for (const part of text.split(/(\{[A-Za-z_][A-Za-z0-9_]*(?::\[[^\]]*\](?:\{[0-9,]+\}|\+)?)?\*?\})/)) {
    if (part.startsWith("{") && part.endsWith("*}")) {
      body = `${body.slice(0, -1)}(?:/(.*))?`;
      rest = true;
    } else if (part.startsWith("{")) {
      const colon = part.indexOf(":");
      body += colon === -1 ? "([^/]+)" : `(${part.slice(colon + 1, -1)})`;
    } else body += escapeLiteral(part);
  }
  return new RegExp(rest || body === "/" ? `^${body}$` : `^${body}/?$`);
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

  it("agrees with the reference regex on every path, several captures in a segment included (fast-check, fixed seed)", () => {
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
      "/{slug}-{id}.html",
      "/{a}-{b}-{c}.html",
      "/x/{a}--{b}/",
      "/{a}.{b}/{rest*}",
    ].map(compiled);
    assert.deepEqual(
      patterns.map((p) => p.prefix),
      ["/watch", "/embed/", "/", "/amp/s", "", "/dp/", "/", "/web/", "/item/", "/", "/", "/", "/x/", "/"],
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
    // Segments made of separators and the literals around them: where several placements of the
    // captures compete and the greedy one must win.
    const tricky = fc
      .tuple(
        fc.array(fc.constantFrom("-", "--", ".", "a", "b", ".html", "x"), { minLength: 1, maxLength: 6 }),
        fc.constantFrom("", ".html", ".html", "-x"),
      )
      .map(([parts, end]) => parts.join("") + end);
    let matched = 0;
    let multi = 0;
    // slashesFit, the count a rule checks before matching: it may only rule out non-matches.
    let ruledOut = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(segment, { arbitrary: tricky, weight: 3 }), { maxLength: 4 }),
        fc.boolean(),
        (segments, slash) => {
          const path = `/${segments.join("/")}${slash && segments.length > 0 ? "/" : ""}`;
          const slashes = path.split("/").length - 1;
          const trailing = path.length > 1 && path.endsWith("/");
          for (const p of patterns) {
            const m = referenceRegex(p.source).exec(path);
            if (m !== null && p.names.length >= 2 && !p.source.includes("*")) multi++;
            const expected = m === null ? undefined : p.names.map((_, i) => m[i + 1] ?? "");
            assert.deepEqual(matchPathPattern(p, path), expected, `${p.source} on ${path}`);
            // Told the count, it tries only the reading that can fit.
            assert.deepEqual(matchPathPattern(p, path, slashes), expected, `${p.source} on ${path}, counted`);
            if (m !== null) matched++;
            if (!slashesFit(p, slashes, trailing)) {
              ruledOut++;
              assert.equal(m, null, `slashesFit ruled out ${p.source} on ${path}`);
            }
          }
        },
      ),
      { seed: 20261203, numRuns: 2000 },
    );
    assert.ok(matched > 2000, `only ${matched} matches: the generator must reach the accepting branch`);
    assert.ok(ruledOut > 2000, `slashesFit ruled out only ${ruledOut} pairs`);
    assert.ok(multi > 100, `only ${multi} matches of a pattern with two captures in a segment`);
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
  it("{name:lower} folds A-Z only, escapes and other letters kept (fast-check, fixed seed)", () => {
    const template = compileTemplate("/{a:lower}", ["a"]);
    assert.ok(template.ok);
    const reference = (v: string) =>
      v.replace(/%[0-9A-Fa-f]{2}|[A-Z]+/g, (m) => (m.charCodeAt(0) === 0x25 ? m : m.toLowerCase()));
    const reached = { plain: 0, escaped: 0, unchanged: 0 };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "Z", "Q", "%2F", "%c3", "%", "É", "ǅ", "İ", "-", "1"), {
          maxLength: 6,
        }),
        (pieces) => {
          const value = pieces.join("");
          const out = fillTemplate(template.value, [value]);
          assert.equal(out, `/${reference(value)}`, value);
          if (out === `/${value}`) reached.unchanged++;
          else if (/[%\u0080-\uffff]/.test(value)) reached.escaped++;
          else reached.plain++;
        },
      ),
      { seed: 20261205, numRuns: 2000 },
    );
    for (const [branch, count] of Object.entries(reached)) assert.ok(count > 100, `${branch}: ${count}`);
  });

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

  it("a constrained capture shares its segment only as the last capture, after a literal its class excludes", () => {
    // Then the scan's one placement is the only one the constraint can accept: no backtracking.
    assert.ok(compilePathPattern("/{slug}-{id:[0-9a-f]{10,12}}").ok);
    assert.ok(compilePathPattern("/x{id:[0-9]+}.html").ok, "one capture in the segment: nothing to place");
    assert.match(message(compilePathPattern("/{id:[0-9]+}-{slug}")), /last capture of its path segment/);
    assert.match(message(compilePathPattern("/{a}-{b:[0-9]+}-{c}")), /last capture of its path segment/);
    assert.match(message(compilePathPattern("/{a}.{b:[a-z.]{3}}")), /needs a character its class/);
    assert.match(message(compilePathPattern("/{a}_{b:[a-z_]+}")), /needs a character its class/);
    assert.ok(compilePathPattern("/{a}._{b:[a-z_]+}").ok, '"." is outside [a-z_]');
  });

  it("agrees with the backtracking reference regex (fast-check, fixed seed)", () => {
    const patterns = [
      "/{slug}/dp/{asin:[A-Z0-9]{10}}/{rest*}",
      "/dp/{asin:[A-Z0-9]{10}}",
      "/{pub}/{slug}-{id:[0-9a-f]{2,3}}",
      "/@{user}/video/{id:[0-9]{1,5}}",
      "/{a}-{b}.{c:[a-z]+}",
      "/x{n:[0-9]+}.html",
    ].map(compiled);
    const piece = fc.constantFrom(
      "a",
      "ab",
      "B0",
      "B07PHPXHQS",
      "b07phpxhqs",
      "1f",
      "12",
      "-",
      "--",
      ".",
      "@",
      "x",
      "dp",
    );
    // Free-form segments, and the shapes the patterns look for (where placements compete).
    const shaped = fc.constantFrom(
      "dp",
      "video",
      "@ab",
      "x12.html",
      "x1a.html",
      "a-b.cd",
      "s-1f",
      "s-1-2f",
      "a.b-c.d",
    );
    const segment = fc.oneof(
      fc.array(piece, { maxLength: 5 }).map((xs) => xs.join("")),
      shaped,
    );
    let matched = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean(), (segments, slash) => {
        const path = `/${segments.join("/")}${slash ? "/" : ""}`;
        for (const p of patterns) {
          const m = referenceRegex(p.source).exec(path);
          const expected = m === null ? undefined : p.names.map((_, i) => m[i + 1] ?? "");
          assert.deepEqual(matchPathPattern(p, path), expected, `${p.source} on ${path}`);
          if (m === null) refused++;
          else matched++;
        }
      }),
      { seed: 20261204, numRuns: 3000 },
    );
    assert.ok(matched > 100, `${matched} matches`);
    assert.ok(refused > 100, `${refused} refusals`);
  });

  it("a constraint's table check answers as its regular expression (fast-check, fixed seed)", () => {
    // The constraints the built-in rules use, and classes with ranges across punctuation (A-z
    // holds [ \\ ] ^ _ `), a final "-", and every count form.
    const constraints = [
      "[A-Z0-9]{10}",
      "[A-Za-z0-9-]{1,39}",
      "[A-Za-z0-9._-]{1,100}",
      "[0-9]+",
      "[0-9a-f]{10,12}",
      "[a-z_.~]+",
      "[A-z]{2,3}",
      "[0-9]{1,25}",
      "[a-z]",
      "[Z-z~-]+",
    ];
    const char = fc.oneof(
      fc.constantFrom("A", "Z", "a", "z", "0", "9", "-", "_", ".", "~", "[", "^", "`", "\\", "/", "%"),
      fc.constantFrom("\n", "\u0000", "\u007f", "é", "\u212a", "\ud83d"),
      fc.string({ minLength: 1, maxLength: 1 }),
    );
    let passed = 0;
    let failed = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...constraints),
        // Hostile characters, and values of class characters that pass or fail by length alone.
        fc.oneof(
          fc.array(char, { maxLength: 14 }),
          fc.array(fc.constantFrom(..."abfxzAZ0189-_."), { minLength: 1, maxLength: 14 }),
        ),
        (constraint, chars) => {
          const value = chars.join("");
          const expected = new RegExp(`^${constraint}$`).test(value);
          assert.equal(
            passesCheck(compileCaptureCheck(constraint), value),
            expected,
            `${constraint} on ${value}`,
          );
          if (expected) passed++;
          else failed++;
        },
      ),
      { seed: 20261205, numRuns: 4000 },
    );
    assert.ok(passed > 100, `${passed} passed`);
    assert.ok(failed > 100, `${failed} failed`);
  });

  it("a hostile path against a constrained pattern stays linear (hang guard)", { timeout: 10_000 }, () => {
    const p = compiled("/{pub}/{slug}-{id:[0-9a-f]{10,12}}");
    // Many dashes and hex runs: a backtracking matcher would try each "-" as the end of the slug.
    const hostile = `/pub/${"-0123456789a".repeat(20_000)}-zz`;
    assert.equal(matchPathPattern(p, hostile), undefined);
    assert.deepEqual(
      matchPathPattern(p, `/pub/${"-0123456789a".repeat(20_000)}-0123456789ab`)?.[2],
      "0123456789ab",
    );
  });
});
