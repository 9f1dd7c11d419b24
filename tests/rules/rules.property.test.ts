import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { explain, isUrlError, type NormalizeOptions, normalize } from "../../src/index.js";
import { DeclaredRule } from "../../src/rules/declared-rule.js";
import { createDefaultRules, defaultRules } from "../../src/rules/default-rules.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";

// URLs aimed at the built-in rules: their hosts, path segments their patterns look for, parameters
// they keep or strip, wrapped targets and fragments GitHub keeps, so that most runs reach a rule.
// At most eight hosts per rule, so the Google unwrappers' 374 search domains do not crowd the rest out.
// The wrappers (one path and one parameter each) are drawn a quarter of the time, so that most runs
// still reach a rule that rewrites.
const hostsOf = (r: DeclaredRule) => [...r.hosts.exact, ...r.hosts.suffixes.map((s) => `x${s}`)].slice(0, 8);
const declared = defaultRules.filter((r): r is DeclaredRule => r instanceof DeclaredRule);
const hostArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...declared.filter((r) => r.declaration.unwrap === undefined).flatMap(hostsOf),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ...declared.filter((r) => r.declaration.unwrap !== undefined).flatMap(hostsOf),
    ),
  },
);
const segment = fc.constantFrom(
  "embed",
  "v",
  "shorts",
  "live",
  "watch",
  "dp",
  "gp",
  "product",
  "aw",
  "d",
  "B08N5WRWNW",
  "status",
  "photo",
  "video",
  "1",
  "p",
  "reel",
  "reels",
  "r",
  "comments",
  "abc123",
  "hello_world",
  "in",
  "posts",
  "blob",
  "main",
  "amp",
  "s",
  "url",
  "l.php",
  "web",
  "2020",
  "https:",
  "",
  "example.com",
  "youtu.be",
  "%41b",
  "@x",
  "ref=sr_1",
  "playlist",
  "item",
  "-",
  "en",
  "exec",
  "obidos",
  "ASIN",
  "B07PHPXHQS",
  "6718335390845095173",
  "post-1a2b3c4d5e6f",
  "1a2b3c4d5e6f",
  // The wrappers of issue 22 part 2.
  "c",
  "link",
  "linkfilter",
  "away.php",
  "redirect",
  "redir",
  "l",
  "v2",
  "v3",
  "t3_abc",
);
const target = fc.constantFrom(
  "https%3A%2F%2Fexample.com%2Fa%3Fb%3D1",
  "https://youtu.be/abc?t=1",
  "http://x.com/a/status/1/photo/1",
  "https%3A%2F%2Fwww.google.com%2Furl%3Fq%3Dhttps%3A%2F%2Fexample.com%2F",
  "ftp://example.com/",
  "/rel",
  "",
);
const param = fc
  .tuple(
    fc.constantFrom(
      "v",
      "t",
      "si",
      "feature",
      "list",
      "tag",
      "ref",
      "q",
      "u",
      "url",
      "utm_source",
      "s",
      "igshid",
      "x",
      "tab",
      "id",
      "source",
      "sk",
      "is_from_webapp",
      "gbraid",
      "to",
      "uddg",
      "z",
    ),
    fc.oneof(fc.constantFrom("1", "a%20b", "A", ""), target),
  )
  .map(([k, v]) => `${k}=${v}`);
const ruleUrl = fc
  .record({
    scheme: fc.constantFrom("http", "https", "HTTPS"),
    host: hostArb,
    path: fc.array(segment, { maxLength: 6 }),
    slash: fc.boolean(),
    query: fc.array(param, { maxLength: 4 }),
    fragment: fc.constantFrom("", "#L10", "#L1-L20", "#top", "#"),
  })
  .map(
    (u) =>
      `${u.scheme}://${u.host}/${u.path.join("/")}${u.slash ? "/" : ""}` +
      `${u.query.length > 0 ? `?${u.query.join("&")}` : ""}${u.fragment}`,
  );

const RUNS = fuzzRuns(3000);

const OPTIONS: NormalizeOptions[] = [
  {},
  { stripFragment: false },
  { trailingSlash: "add" },
  { sortParams: false },
  { rules: [...createDefaultRules({ amazonHost: "com" })] },
];

function attempt(input: string, options: NormalizeOptions): string | undefined {
  try {
    return normalize(input, options);
  } catch (error) {
    if (isUrlError(error)) return undefined;
    throw error;
  }
}

describe("the built-in rules inside the identity pipeline (fast-check, fixed seed)", () => {
  it("keep normalize idempotent and total on the hosts they claim", () => {
    let ruled = 0;
    let unwrapped = 0;
    fc.assert(
      fc.property(ruleUrl, fc.constantFrom(...OPTIONS), (input, options) => {
        const once = attempt(input, options);
        if (once === undefined) return;
        assert.equal(normalize(once, options), once, `input ${input}`);
        const rule = explain(input, options).ruleApplied;
        if (rule !== null) ruled++;
        if (new URL(once).hostname !== new URL(input).hostname.toLowerCase()) unwrapped++;
      }),
      { seed: 20261202, numRuns: RUNS },
    );
    assert.ok(ruled > RUNS / 2, `a rule applied in ${ruled} runs`);
    assert.ok(unwrapped > RUNS / 10, `the host changed in ${unwrapped} runs`);
  });
});
