import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type DeclarativeRule, explain, type NormalizeOptions, normalize } from "../../src/index.js";
import { hostFacts } from "../../src/pipeline/host-options.js";
import { readTarget } from "../../src/pipeline/normalize.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";
import { ruleFromText } from "../../src/pipeline/rule-text-lane.js";
import { compileRules } from "../../src/rules/compile-rules.js";
import { defaultRules } from "../../src/rules/index.js";
import { MAX_URL_LENGTH } from "../../src/url/max-url-length.js";
import { serializedHostEnd } from "../../src/url/serialized-host.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { attempt } from "../helpers/url-outcome.js";

// The rule text lane unwraps a wrapper link on its text (one level: the target is settled by the
// text lanes or the wrapper is parsed) and keeps the fragment a rule keeps (rule-text-lane.ts).
// explain() never takes it: it is the oracle. Every form of every built-in unwrap rule is reached,
// with hostile targets (nested wrappers, blanks, non-ASCII, trailing white space, relative and
// scheme-relative paths, over-long text, lowercase escapes) and hostile wrappers (the form's
// parameter repeated, tracking-named, session ids, a query a path form keeps, fragments).

const SEED = 20261205;
const RUNS = fuzzRuns(3000);

interface Form {
  readonly path: string;
  readonly param?: string;
  readonly target?: string;
  readonly decode?: string;
}
const unwrapRules = defaultRules.flatMap((rule) => {
  const d = rule.declaration as DeclarativeRule | undefined;
  return d?.unwrap === undefined ? [] : [{ name: d.name, domains: d.domains, forms: d.unwrap as Form[] }];
});

// The wrapper's path for a path form, with the target put where its template reads it. A new
// built-in form fails here until it is given its spelling (so every form stays reached).
function formPath(form: Form, target: string): string {
  const after = (prefix: string) => (target.startsWith(prefix) ? target.slice(prefix.length) : target);
  switch (form.path) {
    case "/amp/s/{target*}":
    case "/c/s/{target*}":
    case "/v/s/{target*}":
      return `${form.path.slice(0, -"{target*}".length)}${after("https://")}`;
    case "/amp/{target*}":
      return `/amp/${after("http://")}`;
    case "/c/{name}.{tld}/{rest*}":
    case "/v/{name}.{tld}/{rest*}":
      return `${form.path.slice(0, 3)}${after("http://")}`;
    case "/web/{timestamp}/{url*}":
      return `/web/20240101000000/${target}`;
    case "/v3/{rest*}":
      return `/v3/__${target}__;!!AbC$`;
    default:
      throw new Error(`no spelling for the unwrap form ${form.path}`);
  }
}

const encodings: Record<string, (t: string) => string> = {
  component: encodeURIComponent,
  raw: (t) => t,
  lowercase: (t) => encodeURIComponent(t).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  plus: (t) => encodeURIComponent(t).replace(/%20/g, "+"),
  proofpoint: (t) => encodeURIComponent(t).replace(/%2F/g, "_").replace(/%/g, "-"),
};

// Targets, each with the corner it stands for ("" for a plain one).
const targets: readonly (readonly [string, string])[] = [
  ["https://example.com/a", ""],
  ["https://www.example.org/", ""],
  ["http://example.com", ""],
  ["https://example.com/a?b=1&utm_source=x", ""],
  ["https://youtu.be/abc123?si=x", ""],
  ["https://www.youtube.com/watch?v=abc&t=1", ""],
  ["https://github.com/o/r/blob/main/a.ts#L10", ""],
  ["https://twitter.com/jack/status/20?s=20", ""],
  ["https://example.com/a#top", ""],
  ["https://www.google.com/search?q=x", ""],
  ["/watch?v=abc&feature=share", "relative"],
  ["/watch?v=abc", "relative"],
  ["https://example.com/a b", "blank"],
  ["https://example.com/\u00e9", "non-ascii"],
  ["https://example.com/a\u00a0", "edge white space"],
  ["https://example.com/a ", "edge white space"],
  [" https://example.com/a", "edge white space"],
  ["https://example.com/a\t", "edge white space"],
  ["/\t/evil.example/x", "relative tab"],
  ["//evil.example/x", "scheme-relative"],
  ["/\\evil.example/x", "scheme-relative"],
  ["javascript:alert(1)", "not web"],
  ["example.com/x", "no scheme"],
  ["HTTPS://Example.COM/A", "parser changes"],
  ["https://example.com/./a/%7e", "parser changes"],
  [`https://example.com/${"a".repeat(7300)}`, "over-long"],
  [`https://example.com/?x=${"\u00e9".repeat(7300)}`, "over-long"],
];

const formCase = fc
  .constantFrom(...unwrapRules)
  .chain((rule) =>
    fc.tuple(
      fc.constant(rule.name),
      fc.constantFrom(
        ...rule.domains.slice(0, 3).map((d) => (d.startsWith("*.") ? `nam12.${d.slice(2)}` : d)),
      ),
      fc.constantFrom(...rule.forms),
    ),
  );

const SECOND_TARGET = "url=https%3A%2F%2Fexample.net%2F";
// Mostly pairs the generic pass leaves alone, now and then one it drops or changes, or a second
// target: with many hostile ones, few wrappers would be clean.
const otherPair = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("sa=t", "e=AT0abc", "rct=j", "") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "utm_source=x",
      "sid=0123",
      "PHPSESSID=0123456789abcdefghijklemopqrstuv",
      SECOND_TARGET,
      "q=",
      "x=%7e",
      "y='",
    ),
  },
);

interface Case {
  readonly input: string;
  readonly rule: string;
  readonly corners: readonly string[];
}

// A wrapper of `form` on `host` around `target`, with pairs before and after a parameter form's.
function wrap(
  [, host, form]: readonly [string, string, Form],
  target: string,
  encoding: string,
  before: readonly string[],
  after: readonly string[],
  repeat: boolean,
): { link: string; corners: string[] } {
  const corners: string[] = [];
  if (form.param === undefined) {
    const query = [...before, ...after].filter((p) => p !== "");
    if (query.length > 0) corners.push("kept query");
    const link = `https://${host}${formPath(form, target)}`;
    return { link: query.length > 0 ? `${link}?${query.join("&")}` : link, corners };
  }
  const encode = encodings[encoding] as (t: string) => string;
  if (encoding === "lowercase" && /%[0-9a-f]{2}/.test(encode(target)) && /[a-f]/.test(encode(target)))
    corners.push("lowercase escape");
  const pairs = [...before, `${form.param}=${encode(target)}`, ...after];
  if (repeat) {
    pairs.push(`${form.param}=https%3A%2F%2Fother.example%2F`);
    // Unencoded, the target's own "#" or "&" may end the pair first.
    if (encoding !== "raw") corners.push("repeated");
  }
  return { link: `https://${host}${form.path.replace("{thing}", "t3_abc")}?${pairs.join("&")}`, corners };
}

const wrapped: fc.Arbitrary<Case> = fc
  .tuple(
    formCase,
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...targets.filter(([, c]) => c === "" || c === "relative")) },
      { weight: 1, arbitrary: fc.constantFrom(...targets) },
    ),
    fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: formCase }),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant("component") },
      { weight: 1, arbitrary: fc.constantFrom(...Object.keys(encodings)) },
    ),
    fc.array(otherPair, { maxLength: 2 }),
    fc.array(otherPair, { maxLength: 2 }),
    fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    fc.constantFrom("", "", "", "", "#x", "#/route", "#L10"),
  )
  .map(([outer, [target, corner], inner, encoding, before, after, repeat, hash]) => {
    const corners = corner === "" ? [] : [corner];
    let text = target;
    if (inner !== undefined) {
      // A wrapper in the wrapper: the pipeline's, which counts the depth.
      text = wrap(inner, target, "component", [], [], false).link;
      corners.push("nested");
    }
    const out = wrap(outer, text, encoding, before, after, repeat);
    // Another form's parameter (google's url=, steam's url=) may give the target first.
    if ([...before, ...after].includes(SECOND_TARGET)) corners.push("second target");
    return { input: out.link + hash, rule: outer[0], corners: [...corners, ...out.corners] };
  });

const options = fc.constantFrom<NormalizeOptions | undefined>(
  undefined,
  undefined,
  undefined,
  undefined,
  { extraTrackingParams: ["q", "u", "url", "to", "uddg", "z"] },
  { removeSessionIds: false },
  { stripTracking: false },
  { trailingSlash: "keep" },
  { stripFragment: false },
);

// The lane's answer where normalize() would ask it (an input within the length bound).
function laneOf(input: string, given: NormalizeOptions | undefined): string | undefined {
  const hostEnd = input.length > MAX_URL_LENGTH ? -1 : serializedHostEnd(input);
  if (hostEnd === -1) return undefined;
  const resolved = resolveNormalizeOptions(given);
  const lookup = ruleLookup(resolved.rules);
  const hostname = input.slice(input.charCodeAt(4) === 0x3a ? 7 : 8, hostEnd);
  const facts = hostFacts(resolved, lookup, hostname);
  if (!facts.claimed) return undefined;
  return ruleFromText(input, hostEnd, hostname, resolved, lookup, facts, readTarget);
}

// normalize() against explain() on one input (where: how a failure names it), then the lane's own
// answer: "" where it refuses.
function checked(input: string, given: NormalizeOptions | undefined, where: string) {
  const full = attempt(() => explain(input, given).canonical);
  assert.deepEqual(
    attempt(() => normalize(input, given)),
    full,
    `normalize vs explain of ${where}`,
  );
  return { full, lane: attempt(() => laneOf(input, given) ?? "") };
}

describe("the rule text lane on wrapper links (fast-check, fixed seed)", () => {
  it("unwraps on the text exactly as the whole pipeline, and refuses what it does not model", () => {
    const unwrappedBy = new Map<string, number>(unwrapRules.map((r) => [r.name, 0]));
    const refusedCorner = new Map<string, number>();
    let unwrapped = 0;
    let relativeTaken = 0;
    let trackedTaken = 0;
    fc.assert(
      fc.property(wrapped, options, ({ input, rule, corners }, given) => {
        const where = `${JSON.stringify(input)} with ${JSON.stringify(given)}`;
        const { full, lane } = checked(input, given, where);
        if (lane.ok && lane.value === "") {
          for (const c of corners) refusedCorner.set(c, (refusedCorner.get(c) ?? 0) + 1);
          return;
        }
        assert.deepEqual(lane, full, `lane of ${where}`);
        const rounds = explain(input, given).steps.filter((s) => s.stage === "parse").length;
        // One level only: a target that is a wrapper again is the pipeline's.
        assert.ok(rounds <= 2, `the lane took a link the pipeline peels ${rounds - 1} times: ${where}`);
        if (rounds < 2) return;
        unwrapped++;
        unwrappedBy.set(rule, (unwrappedBy.get(rule) ?? 0) + 1);
        if (corners.includes("relative")) relativeTaken++;
        if (given?.extraTrackingParams !== undefined) trackedTaken++;
        // What the lane must never take: the pipeline peels these, or reads them otherwise.
        if (!corners.includes("second target"))
          for (const c of ["lowercase escape", "over-long", "edge white space"])
            assert.ok(!corners.includes(c), `the lane took a ${c} case: ${where}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [name, count] of unwrappedBy)
      assert.ok(count > 0, `no ${name} link was unwrapped on the text`);
    assert.ok(unwrapped > RUNS / 10, `only ${unwrapped} of ${RUNS} unwrapped on the text`);
    assert.ok(relativeTaken > 0, "no relative (sameHost) target was unwrapped on the text");
    assert.ok(trackedTaken > 0, "no wrapper with a tracking-named parameter was unwrapped on the text");
    for (const corner of new Set(targets.map(([, c]) => c).filter((c) => c !== "")))
      assert.ok((refusedCorner.get(corner) ?? 0) > 0, `the lane never refused a ${corner} target`);
    for (const corner of ["nested", "repeated", "lowercase escape", "kept query"])
      assert.ok((refusedCorner.get(corner) ?? 0) > RUNS / 100, `the lane rarely refused a ${corner} case`);
  });
});

// A rule that keeps every fragment (stripFragment: false in its declaration), beside the built-ins'
// GitHub #L10 (on blob paths only) and Sheets #gid=0.
const keepsAll = compileRules([
  { name: "keeps-all-v1", domains: ["keep.test"], stripFragment: false, stripParams: ["s"] },
]);

const fragmentLink = fc
  .tuple(
    fc.constantFrom(
      "https://github.com/o/r/blob/main/a.ts",
      "https://github.com/o/r/blob/main/a.ts/",
      "https://www.github.com/NodeJS/Node/blob/v20/lib/url.js",
      "https://github.com/o/r",
      "https://github.com/o/r/tree/main/src",
      "https://docs.google.com/spreadsheets/d/abc/edit",
      "https://docs.google.com/spreadsheets/d/abc/edit/",
      "https://docs.google.com/document/d/abc/edit",
      "https://keep.test/a",
    ),
    fc.option(fc.constantFrom("utm_source=x", "plain=1", "b=2&a=1", "s=1&k=2", "ref=main"), {
      nil: undefined,
    }),
    fc.constantFrom(
      "#L10",
      "#L10-L20",
      "#gid=0",
      "#gid=123456",
      "#readme",
      "#top",
      "#",
      "#L1%20",
      "#L1 0",
      "#L\u00e9",
      "#L'1",
      "#L1<",
      "#a?b/c",
      "#L10#L2",
      "#L10\t",
      "#/route",
      `#L${"1".repeat(300)}`,
      `#${"a".repeat(300)}`,
    ),
  )
  .map(([link, query, hash]) => `${link}${query === undefined ? "" : `?${query}`}${hash}`);

describe("the rule text lane on fragments a rule may keep (fast-check, fixed seed)", () => {
  it("keeps or drops the fragment as the whole pipeline does", () => {
    const reached = { kept: 0, dropped: 0, refused: 0, keptWithQuery: 0 };
    const withRules = fc.constantFrom<NormalizeOptions | undefined>(undefined, undefined, {
      rules: [...keepsAll, ...defaultRules],
    });
    fc.assert(
      fc.property(fragmentLink, withRules, (input, given) => {
        const where = `${JSON.stringify(input)} with ${given === undefined ? "the built-ins" : "keeps-all"}`;
        const { full, lane } = checked(input, given, where);
        if (lane.ok && lane.value === "") {
          reached.refused++;
          return;
        }
        assert.deepEqual(lane, full, `lane of ${where}`);
        if (!lane.ok) return;
        if (lane.value.includes("#")) {
          reached.kept++;
          if (lane.value.includes("?")) reached.keptWithQuery++;
        } else if (input.length > input.indexOf("#") + 1) reached.dropped++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 50, `${branch}: only ${count} of ${RUNS} runs reached it`);
  });
});
