import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type DomainRule, defaultRules, explain, normalize } from "../../src/index.js";
import { applyParts, DeclaredRule } from "../../src/rules/declared-rule.js";
import { compileRules } from "../../src/rules/load-rules.js";
import type { UrlParts } from "../../src/url/url-parts.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";

const SEED = 20261203;
const RUNS = fuzzRuns(4000);

// The same rules as opaque user code: the pipeline then parses every rule input and output
// (new URL, rule.apply), the path the parts shortcut must agree with.
// Code cannot carry exemptParams (they are read from declarations, by host), so the opaque copy
// gets them back the way a user would: exemption-only declarative rules beside the code.
const opaque: DomainRule[] = [
  ...defaultRules.map((rule) => ({
    name: rule.name,
    match: (url: URL) => rule.match(url),
    apply: (url: URL) => rule.apply(url),
    ...(rule.stripParams === undefined ? {} : { stripParams: rule.stripParams }),
    ...(rule instanceof DeclaredRule ? { stripParamsFor: (url: URL) => rule.stripParamsFor(url) } : {}),
    ...(rule.keepFragment === undefined ? {} : { keepFragment: rule.keepFragment }),
  })),
  ...compileRules(
    defaultRules
      .filter((r): r is DeclaredRule => r instanceof DeclaredRule && r.exemptParams !== undefined)
      .map((r) => ({
        name: `${r.name}-exemptions`,
        domains: [...r.hosts.exact, ...r.hosts.suffixes.map((s) => `*${s}`)],
        exemptParams: r.exemptParams,
      })),
  ),
];

// Links shaped by the rules' own path patterns, captures filled with ordinary and awkward values
// (characters the parser encodes, escapes, dots), on the rules' own hosts.
const declared = defaultRules.filter((r): r is DeclaredRule => r instanceof DeclaredRule);
const shapes = declared.flatMap((rule) =>
  [...rule.hosts.exact].flatMap((host) =>
    (rule.declaration.pathPatterns ?? [{ match: "/{x}/{y*}" }])
      .filter((p) => (p as { hosts?: string[] }).hosts?.includes(host) ?? true)
      .map((p) => ({ host, pattern: p.match })),
  ),
);
const capture = fc.constantFrom(
  ...["dQw4w9WgXcQ", "B0FK9PWQ6E", "jack", "20", "x.y", "..x", "a.", "%2e", "x y", "é", "'", "a'b"],
  ...["%27", "a|b", "%41", "c%3Ad", "%zz", "a%2Fb", "{}", "^", "~u", "a=b", "a&b", "%23"],
);
const rest = fc.array(capture, { maxLength: 3 }).map((xs) => xs.join("/"));
const param = fc.constantFrom(
  ...["v=dQw4w9WgXcQ", "v=a'b", "t=10", "si=x", "utm_source=y", "feature=share", "list=PL1", "s=20"],
  ...["tag=a", "keywords=x", "q=https%3A%2F%2Fexample.com%2Fa", "a='b'", "x=%7C", "b", "v=%2e%2e"],
);
const fragment = fc.constantFrom("", "", "#L10", "#L10-L20", "#top", "#a%20b", "#x'y");
const ruleUrl = fc
  .tuple(
    fc.constantFrom("https", "http", "HTTP"),
    fc.constantFrom(...shapes),
    fc.constantFrom("", "", ":8443"),
    fc.array(capture, { minLength: 4, maxLength: 4 }),
    rest,
    fc.boolean(),
    fc.array(param, { maxLength: 4 }),
    fragment,
  )
  .map(([scheme, shape, port, values, tail, slash, params, hash]) => {
    let i = 0;
    const path = shape.pattern
      .replace(/\{[A-Za-z_]+\*\}/, tail)
      .replace(/\{[A-Za-z_]+\}/g, () => values[i++ % values.length] as string);
    const query = params.length > 0 ? `?${params.join("&")}` : "";
    return `${scheme}://${shape.host}${port}${path}${slash ? "/" : ""}${query}${hash}`;
  });

// Wrappers around a rule link: the unwrapped target takes the whole pipeline again.
const wrapped = fc
  .tuple(ruleUrl, fc.constantFrom("google-url", "facebook", "wayback", "amp"))
  .map(([inner, kind]) => {
    const bare = inner.replace(/^[a-zA-Z]+:\/\//, "");
    if (kind === "google-url") return `https://www.google.com/url?q=${encodeURIComponent(inner)}&sa=D`;
    if (kind === "facebook") return `https://l.facebook.com/l.php?u=${encodeURIComponent(inner)}&h=AT0`;
    if (kind === "wayback") return `https://web.archive.org/web/20200101000000/${inner}`;
    return `https://www.google.com/amp/s/${bare}`;
  });

describe("declarative rules on parts (fast-check, fixed seed)", () => {
  it("give exactly what the same rules give through parsed URLs", () => {
    let applied = 0;
    let unwrapped = 0;
    // The rule and the final pass read the generic pass's pairs instead of splitting the query;
    // normalize() (no steps) skips listing the names stripped. Both are compared with the parsed
    // path of opaque rules, which splits every query itself.
    let queryFiltered = 0;
    let queryKept = 0;
    for (const stripFragment of [true, false]) {
      fc.assert(
        fc.property(fc.oneof(ruleUrl, ruleUrl, wrapped), (input) => {
          const viaParts = explain(input, { stripFragment });
          const viaUrls = explain(input, { stripFragment, rules: opaque });
          assert.equal(viaParts.canonical, viaUrls.canonical, input);
          assert.equal(viaParts.ruleApplied, viaUrls.ruleApplied, input);
          assert.deepEqual(viaParts.paramsStripped, viaUrls.paramsStripped, input);
          assert.equal(normalize(input, { stripFragment }), viaUrls.canonical, input);
          if (viaParts.ruleApplied !== null) applied++;
          const ruled = viaParts.steps.find((step) => step.stage === "rule");
          const generic = viaParts.steps.find((step) => step.stage === "generic");
          if (ruled !== undefined && generic?.url.includes("?") === true) {
            if (ruled.url.split("#")[0] !== generic.url) queryFiltered++;
            if (viaParts.canonical.includes("?")) queryKept++;
          }
          if (viaParts.steps.filter((s) => s.stage === "parse").length > 1) unwrapped++;
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
    assert.ok(applied > RUNS / 2, `a rule applied to only ${applied} inputs`);
    assert.ok(unwrapped > RUNS / 4, `only ${unwrapped} unwrapped links`);
    assert.ok(queryFiltered > RUNS / 10, `only ${queryFiltered} rewrites of a link with a query`);
    assert.ok(queryKept > RUNS / 10, `only ${queryKept} canonical links kept a query`);
  });

  it("skip the parse only for a rewrite the parser would leave as it is", () => {
    const youtube = defaultRules.find((r) => r.name === "youtube-v3") as DeclaredRule;
    const parts = (pathname: string, search = ""): UrlParts => ({
      protocol: "https:",
      username: "",
      password: "",
      hostname: "youtube.com",
      port: "",
      pathname,
      search,
      hash: "",
    });
    const plain = youtube[applyParts](parts("/shorts/dQw4w9WgXcQ"));
    assert.ok(!(plain instanceof URL), "a plain rewrite comes back as parts");
    assert.equal((plain as { href: string }).href, "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    const odd = youtube[applyParts](parts("/shorts/a'b"));
    assert.ok(odd instanceof URL, "a ' in the query (the parser encodes it) sends the rewrite through it");
    assert.equal((odd as URL).href, "https://www.youtube.com/watch?v=a%27b");
    // A capture that ends up a dot segment would be resolved by the parser: that one is parsed.
    const instagram = defaultRules.find((r) => r.name === "instagram-v2") as DeclaredRule;
    const dotted = instagram[applyParts]({ ...parts("/p/../x"), hostname: "instagram.com" });
    assert.ok(dotted instanceof URL, "a dot segment sends the rewrite through the parser");
    assert.equal((dotted as URL).href, "https://www.instagram.com/");
  });
});
