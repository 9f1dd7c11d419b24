import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { explain, type NormalizeOptions, normalize } from "../../src/index.js";
import { hostFacts } from "../../src/pipeline/host-options.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";
import { ruleFromText } from "../../src/pipeline/rule-text-lane.js";
import { compileRules } from "../../src/rules/compile-rules.js";
import { defaultRules } from "../../src/rules/index.js";
import { serializedHostEnd } from "../../src/url/serialized-host.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { attempt } from "../helpers/url-outcome.js";

// normalize() builds the key of a link a declarative rule claims on the text's offsets when the
// parser would leave the text alone and the generic pass would change nothing before the query but
// trailing slashes (rule-text-lane.ts). explain() never takes it: it is the oracle. The links are
// on the hosts of the built-in rules and of rules written to reach the lane's corners (a rewrite
// that sets pairs, moves the host to one with other tracking options, lands off the rule's hosts,
// a `{domain}` host, an unscoped allowlist, stripParams, a kept fragment, a path the parser would
// change in the rewrite), with hostile variations: case, escapes, dot segments, session ids,
// tracking and allowlisted pairs, repeated and empty pairs, fragments, trailing slashes.

const SEED = 20261205;
const RUNS = fuzzRuns(3000);

const own = compileRules([
  {
    name: "sets-v1",
    domains: ["set.test", "www.set.test"],
    canonicalHost: "www.set.test",
    keepParams: ["a", "b", "utm_source"],
    stripParams: ["z"],
    pathPatterns: [
      { match: "/a/{id}", rewrite: "/a?utm_source={id}&v={id}" },
      { match: "/b/{id}", rewrite: "/b?z={id}&b={id}" },
      { match: "/c", rewrite: "/c", keepParams: [] },
      { match: "/d/{id}", rewrite: "/d/{id}/..", stripParams: ["b"] },
      { match: "/e/{id}", rewrite: "/e?q={id}" },
    ],
  },
  {
    name: "moves-v1",
    domains: ["move.test", "*.move.test"],
    canonicalHost: "kept.test",
    canonicalScheme: "https",
    pathPatterns: [
      { match: "/a/{id}", rewrite: "/a/{id:lower}" },
      { match: "/c", rewrite: "/c?v=1" },
    ],
  },
  // On the input's host only: the generic pass keeps these there, the final pass on kept.test not.
  { name: "exempts-move-v1", domains: ["move.test"], exemptParams: ["utm_source", "fbclid"] },
  {
    name: "shop-v1",
    domains: ["shop.test", "www.shop.test", "shop.co.test", "www.shop.co.test"],
    canonicalHost: "www.{domain}",
    mirrorHosts: true,
    keepFragment: { pattern: "L\\d+", paths: ["/f/{rest*}"] },
    pathPatterns: [{ match: "/{slug}/dp/{id:[A-Z0-9]{4}}/{rest*}", rewrite: "/dp/{id}" }],
  },
  { name: "plain-v1", domains: ["plain.test"], keepParams: ["k"], stripParams: ["s*"] },
  // Its canonical host is none of its own: the pipeline starts over there (no rule claims it).
  { name: "off-v1", domains: ["off.test"], canonicalHost: "cdn.{domain}", stripParams: ["b"] },
  {
    name: "wrap-v1",
    domains: ["wrap.test"],
    unwrap: [{ path: "/out", param: "u" }],
  },
  {
    name: "after-wrap-v1",
    domains: ["wrap.test"],
    pathPatterns: [{ match: "/p/{id}", rewrite: "/p/{id}" }],
  },
]);

const ownOptions = fc.constantFrom<NormalizeOptions>(
  { rules: own },
  { rules: own },
  { rules: [...own, ...defaultRules] },
  { rules: own, stripFragment: false },
  { rules: own, trailingSlash: "keep" },
  { rules: own, removeSessionIds: false },
  { rules: own, stripTracking: false },
  { rules: own, extraTrackingParams: ["v", "b*"] },
  { rules: own, keepParams: ["si", "a"] },
);
const builtinOptions = fc.constantFrom<NormalizeOptions | undefined>(
  undefined,
  undefined,
  undefined,
  { stripFragment: false },
  { trailingSlash: "keep" },
  { removeSessionIds: false },
  { stripTracking: false },
  { extraTrackingParams: ["v", "b*"] },
  { keepParams: ["si", "a"] },
  { stripWWW: true },
);
const anyOptions = fc.oneof(ownOptions, builtinOptions);

const id = fc.constantFrom("abcDEF123", "AB12", "x", "B08N5WRWNW", "Q'x", "a.b", ".", "nodejs", "NodeJS");
// Paths the rules declare (and near them), on their hosts; {id} is filled from `id`.
const ownShapes = fc.constantFrom<readonly [string, string]>(
  ["www.set.test", "/a/{id}"],
  ["set.test", "/a/{id}"],
  ["www.set.test", "/b/{id}"],
  ["www.set.test", "/c"],
  ["www.set.test", "/c/"],
  ["www.set.test", "/d/{id}"],
  ["set.test", "/e/{id}"],
  ["www.set.test", "/e/{id}"],
  ["move.test", "/a/{id}"],
  ["a.move.test", "/c"],
  ["move.test", "/c"],
  ["move.test", "/x/{id}"],
  ["shop.test", "/{id}/dp/AB12/x"],
  ["www.shop.co.test", "/Slug/dp/AB12"],
  ["shop.co.test", "/f/{id}"],
  ["plain.test", "/{id}"],
  ["off.test", "/{id}"],
  ["wrap.test", "/out"],
  ["wrap.test", "/out/"],
  ["wrap.test", "/p/{id}"],
);
const builtinShapes = fc.constantFrom<readonly [string, string]>(
  ["www.youtube.com", "/watch"],
  ["youtu.be", "/{id}"],
  ["youtube.com", "/shorts/{id}"],
  ["m.youtube.com", "/embed/{id}"],
  ["www.youtube.com", "/redirect"],
  ["www.youtube.com", "/@{id}/videos"],
  ["music.youtube.com", "/watch"],
  ["github.com", "/{id}/node"],
  ["www.github.com", "/nodejs/{id}/blob/main/url.js"],
  ["github.com", "/{id}/node.git"],
  ["www.reddit.com", "/r/rust/comments/{id}/slug/"],
  ["old.reddit.com", "/r/{id}/"],
  ["www.amazon.com", "/Slug/dp/B08N5WRWNW/ref=x"],
  ["amazon.de", "/dp/{id}"],
  ["twitter.com", "/jack/status/20"],
  ["www.instagram.com", "/p/{id}/"],
  ["www.linkedin.com", "/in/{id}"],
  ["www.google.com", "/search"],
  ["www.google.com", "/url"],
  ["www.google.com", "/amp/s/example.com/{id}"],
  ["docs.google.com", "/spreadsheets/d/{id}/edit"],
  ["news.ycombinator.com", "/item"],
  ["medium.com", "/@a/title-1a2b3c4d5e6f"],
  ["www.tiktok.com", "/@x/video/123"],
);

const hosts = fc.constantFrom(
  "www.youtube.com",
  "youtube.com",
  "youtu.be",
  "m.youtube.com",
  "music.youtube.com",
  "github.com",
  "www.github.com",
  "www.reddit.com",
  "old.reddit.com",
  "www.amazon.com",
  "amazon.de",
  "x.com",
  "twitter.com",
  "www.instagram.com",
  "www.linkedin.com",
  "www.google.com",
  "docs.google.com",
  "news.ycombinator.com",
  "medium.com",
  "www.tiktok.com",
  "set.test",
  "www.set.test",
  "move.test",
  "a.move.test",
  "shop.test",
  "shop.co.test",
  "plain.test",
  "off.test",
  "wrap.test",
  "WWW.YouTube.com",
);
const plainSegment = fc.constantFrom(
  "watch",
  "playlist",
  "results",
  "embed",
  "shorts",
  "abcDEF123",
  "nodejs",
  "NodeJS",
  "node",
  "node.git",
  "blob",
  "main",
  "url.js",
  "issues",
  "r",
  "rust",
  "comments",
  "1a2b3c",
  "dp",
  "B08N5WRWNW",
  "AB12",
  "Slug-Name",
  "status",
  "20",
  "p",
  "reel",
  "in",
  "search",
  "url",
  "amp",
  "s",
  "a",
  "b",
  "c",
  "d",
  "e",
  "f",
  "out",
  "@mkbhd",
  "feed",
  "item",
);
// Each is changed by the parser or the generic pass, or may be (the lane refuses them).
const hostileSegment = fc.constantFrom(
  "%41b",
  "%2fx",
  "%7e",
  "x%20y",
  ".",
  "..",
  ".hidden",
  "x;jsessionid=0A1B",
  "(S(4hqa0555fwsecu455xqckv45))",
  "a'b",
  "a|b",
  "",
);
const segment = fc.oneof({ weight: 8, arbitrary: plainSegment }, { weight: 1, arbitrary: hostileSegment });
const pair = fc.constantFrom(
  "v=abc",
  "v=zzz",
  "list=PL1",
  "search_query=a+b",
  "si=xyz",
  "t=42",
  "utm_source=x",
  "UTM_Medium=y",
  "fbclid=1",
  "gclid=2",
  "feature=share",
  "q=canonical+url",
  "u=https%3A%2F%2Fexample.com%2F",
  "u=https%3A%2F%2Fexample.com%2F",
  "tab=stars",
  "ref=main",
  "a=1",
  "a",
  "a=",
  "b=2",
  "b=1",
  "z=9",
  "k=1",
  "s1=x",
  "sid=0123",
  "refId=x",
  "PHPSESSID=0123456789abcdefghijklemopqrstuv",
  "x=%7e",
  "x=%2F",
  "y='",
  "",
);
const fragment = fc.oneof(
  { weight: 3, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: fc.constantFrom("#L10", "#top", "#", "#/route", "#!x", "#\t/x", "#gid=0", "#L10-L20"),
  },
);

const tail = fc.tuple(
  fc.constantFrom("", "", "", "/", "//"),
  fc.option(fc.array(pair, { maxLength: 6 }), { nil: undefined }),
  fragment,
);
const spell = (
  scheme: string,
  host: string,
  path: string,
  [slash, pairs, hash]: [string, string[] | undefined, string],
): string => `${scheme}${host}${path}${slash}${pairs === undefined ? "" : `?${pairs.join("&")}`}${hash}`;
const scheme = fc.constantFrom("https://", "https://", "http://", "HTTPS://");
const shaped = (shapes: fc.Arbitrary<readonly [string, string]>) =>
  fc
    .tuple(scheme, shapes, id, segment, fc.boolean(), tail)
    .map(([s, [host, path], value, extra, more, rest]) =>
      spell(s, host, `${path.replace("{id}", value)}${more ? `/${extra}` : ""}`, rest),
    );
const anyLink = fc
  .tuple(scheme, hosts, fc.array(segment, { maxLength: 5 }), tail)
  .map(([s, host, segments, rest]) =>
    spell(s, host, segments.length > 0 ? `/${segments.join("/")}` : "", rest),
  );
const cases = fc.oneof(
  fc.tuple(shaped(ownShapes), ownOptions),
  fc.tuple(shaped(builtinShapes), builtinOptions),
  fc.tuple(anyLink, anyOptions),
);

describe("the rule text lane (fast-check, fixed seed)", () => {
  it("answers as the whole pipeline whenever it answers, and normalize() always does", () => {
    const reached = {
      answered: 0,
      // By a rule: its rewrite's key, built on the text.
      ruled: 0,
      ruledWithQuery: 0,
      // The kept pairs out of order, or pairs the rewrite set among them: split and sorted.
      ruledSorted: 0,
      ruledMovedHost: 0,
      // On a claimed host where no rule claims the path: the generic answer.
      unruled: 0,
      refused: 0,
      refusedUnwrapPath: 0,
      refusedFragment: 0,
    };
    fc.assert(
      fc.property(cases, ([input, options]) => {
        const full = attempt(() => explain(input, options).canonical);
        assert.deepEqual(
          attempt(() => normalize(input, options)),
          full,
          `normalize vs explain of ${JSON.stringify(input)} with ${JSON.stringify(options)}`,
        );
        const hostEnd = serializedHostEnd(input);
        if (hostEnd === -1) return;
        const resolved = resolveNormalizeOptions(options);
        const lookup = resolved.rules.length === 0 ? undefined : ruleLookup(resolved.rules);
        const hostname = input.slice(input.charCodeAt(4) === 0x3a ? 7 : 8, hostEnd);
        const facts = hostFacts(resolved, lookup, hostname);
        if (!facts.claimed) return;
        const lane = attempt(() => ruleFromText(input, hostEnd, hostname, resolved, lookup, facts) ?? "");
        if (lane.ok && lane.value === "") {
          reached.refused++;
          if (/\/(out|url|redirect|amp)\b/.test(input)) reached.refusedUnwrapPath++;
          if (input.includes("#")) reached.refusedFragment++;
          return;
        }
        const where = `lane of ${JSON.stringify(input)} with ${JSON.stringify(options)}`;
        assert.deepEqual(lane, full, where);
        if (!full.ok) return;
        reached.answered++;
        const { ruleApplied, steps } = explain(input, options);
        if (ruleApplied === null) {
          reached.unruled++;
          return;
        }
        reached.ruled++;
        if (full.value.includes("?")) reached.ruledWithQuery++;
        const rule = steps.find((s) => s.stage === "rule")?.url ?? "";
        if (new URL(rule).hostname !== hostname) reached.ruledMovedHost++;
        const q = full.value.indexOf("?");
        if (q !== -1) {
          const out = full.value.slice(q + 1).split("&");
          const inputPairs = input.split("#")[0]?.split("?")[1]?.split("&") ?? [];
          const kept = inputPairs.filter((p) => out.includes(p));
          if (kept.length !== out.length || kept.join("&") !== out.join("&")) reached.ruledSorted++;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 50, `${branch}: only ${count} checks in ${RUNS} runs reached it`);
    assert.ok(reached.answered > RUNS / 8, `the lane answered only ${reached.answered} of ${RUNS}`);
  });

  it("asks the rules before its scan, and leaves a failure there to the pipeline", () => {
    // The rules see the path before the scan has found it normal: a capture of escapes that the
    // generic pass decodes (%41 -> A) fills a repeating template past MAX_URL_LENGTH on the raw
    // text only. The pipeline fills it with the decoded capture and answers; so must normalize().
    const rules = compileRules([
      {
        name: "repeat-v1",
        domains: ["repeat.test"],
        pathPatterns: [{ match: "/r/{x}", rewrite: "/{x}/{x}/{x}/{x}" }],
      },
    ]);
    const input = `https://repeat.test/r/${"%41".repeat(7000)}`;
    const full = explain(input, { rules }).canonical;
    assert.equal(full.length, "https://repeat.test/".length + 4 * 7000 + 3);
    assert.equal(normalize(input, { rules }), full);
    const resolved = resolveNormalizeOptions({ rules });
    const lookup = ruleLookup(resolved.rules);
    const facts = hostFacts(resolved, lookup, "repeat.test");
    assert.equal(ruleFromText(input, 19, "repeat.test", resolved, lookup, facts), undefined);
  });
});
