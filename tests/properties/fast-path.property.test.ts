import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { explain, type NormalizeOptions, normalize } from "../../src/index.js";
import { canonicalFastPath, canonicalFromText } from "../../src/pipeline/canonical-fast-path.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";
import { removePathSessionIds, removeQuerySessionIds } from "../../src/pipeline/session-ids.js";
import { parseInput } from "../../src/url/parse-input.js";
import { serializedHostEnd } from "../../src/url/serialized-host.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { hostileUrl, nearSerialized, nestedWrappers, urlish } from "../helpers/url-arbitraries.js";
import { attempt, type Outcome } from "../helpers/url-outcome.js";

// normalize() settles cheap links in canonical-fast-path.ts after checking every stage on their
// parts: on the raw text when its scheme and host are spelled as the parser spells them
// (canonicalFromText), else on the parsed href. explain() never takes the fast path: it runs the
// whole pipeline, so it is the oracle, for the key and for the names reported stripped. Inputs:
// the hostile generators, text spelled nearly as the parser spells it, each input's own canonical
// form (which the fast path should accept), and that form with one thing added that some stage
// changes or keeps.

const SEED = 20261205;
const RUNS = fuzzRuns(3000);

const optionSets: (NormalizeOptions | undefined)[] = [
  undefined,
  undefined,
  { keepParams: ["ref", "utm_source", "si"] },
  { rules: false },
  { stripFragment: false },
  { trailingSlash: "keep" },
  { removeSessionIds: false },
  { stripTracking: false },
  { extraTrackingParams: ["b", "page*"] },
  { preset: "rfc3986" },
  { preset: "rfc3986", trailingSlash: "strip" },
  { preset: "rfc3986", removeSessionIds: true },
  { trailingSlash: "add" },
  { trackingLayers: [{ name: "drop-a", inspect: () => ({ remove: (n: string) => n === "a" }) }] },
];
// Appended to a canonical form: each is left alone by some stage and changed by another.
const suffixes = fc.constantFrom(
  "",
  "#top",
  "#",
  "#/route",
  "#!/bang",
  "/",
  "?",
  "?a=1",
  "?b=1&a=2",
  "?a&a=",
  "?a=&a",
  "?a=1&&b=2",
  "?utm_source=x",
  "?si=abc",
  "?ref=x",
  "?PHPSESSID=0123456789abcdefghijklemopqrstuv",
  "?q=%7e",
  "?q=%2F",
  ";jsessionid=0A1B",
  "/(S(4hqa0555fwsecu455xqckv45))/x.aspx",
  "/./x",
  "/%41",
  "/a%2fb",
  "|",
  "?utm_source=x&b=1&a=2",
  "?c=3&utm_medium=email&a=1#frag",
  "?si=1&fbclid=2&si=3&a",
  "?a=1&",
  "?&",
  "//",
  "/?",
  "/x//?b=2&a=1",
  "?'q=1",
  "#\t/route",
  "# /route",
  "?a=1\t&b",
  "/a b",
  // What the parser percent-encodes on raw text (UTF-8, uppercase) and the repair on the text
  // encodes the same way; blanks and controls it trims at the end; surrogates outside a pair.
  "/caf\u00e9",
  "/\u00e9/%C3%A9",
  "?q=\u00e9&a=1",
  "?q=a b",
  "/\u{1f600}?x=\u{1f600}",
  "/\u0001\u007f",
  "/x\u0085y",
  "/\ud800",
  "/a\udc00b",
  "?q=\ud83d",
  "/x ",
  "?q=1 ",
  "/x\u0001",
  "/a b?c=d e#f g",
  // Unicode white space at the end: parseInput trims it (String#trim's set), the parser alone would
  // encode it; in the middle it is encoded.
  "/x\u00a0",
  "?q=1\u2028",
  "/\ufeff",
  "/a\u3000b",
  // Fragments the pipeline keeps (a route; any with stripFragment off): the lane keeps them as
  // the generic pass writes them, or leaves to the parse one holding what a parse would encode.
  "#/a%7e#b",
  "#!/p?q=1&r",
  "#/a b",
  "#/caf\u00e9",
  "#/x`y",
  "?b=1&a=2#/inbox/",
  // Session ids the fast path removes with the generic pass's own stages (a name listed once, a
  // dot segment the removal uncovers, which the generic pass leaves).
  "?b=1&sid=0123456789abcdef0123456789abcdef&a",
  "?CFID=1&CFTOKEN=2&utm_source=x",
  "/x;JSESSIONID=AB?q=1",
  "?PHPSESSID=0123456789abcdef0123456789abcdef&PHPSESSID=0123456789abcdef0123456789abcdef",
  "/.;jsessionid=x/a",
  "?ASPSESSIONIDQQGGGNCU=ABCDEFGHIJKLMNOPQRSTUVWX",
);

// Before the fragment: an escape in lowercase hex or of an unreserved byte, a stray "%", a
// character the normalization encodes, a dot segment.
const REPAIRED_ON_TEXT =
  /%(?![0-9A-F]{2})|%(?:4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9AE]|3[0-9]|2[DE])|[|^`{}<>"[\]]|\/\.\.?(?:[/?]|$)/;

// Before the fragment: a character the parser percent-encodes (a space, a control, non-ASCII).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are the point
const ENCODED_BY_PARSER = /[\u0000-\u0020\u007f-\uffff]/;

describe("the canonical fast path (fast-check, fixed seed)", () => {
  it("answers as the whole pipeline whenever it answers, and normalize() always does", () => {
    const reached = {
      taken: 0,
      takenFromText: 0,
      takenWithQuery: 0,
      takenRebuilt: 0,
      takenStripped: 0,
      takenWithFragment: 0,
      takenOnRuleList: 0,
      takenRfc3986: 0,
      takenRepaired: 0,
      // After the parse, on an href with escapes or dot segments to repair (settleRepaired).
      takenRepairedEscapes: 0,
      refused: 0,
      refusedFromText: 0,
      // On text the parser would respell: its scheme's or host's case, a port (serializedAuthority).
      takenFromNearText: 0,
      // On text with an escape to normalize, a character the normalization encodes or a dot segment.
      takenFromTextRepaired: 0,
      // On text with a character the parser would encode (non-ASCII, a space, a control).
      takenFromTextEncoded: 0,
      // On text whose host the parser rewrites (IDN, xn--, an IP address, a trailing dot): parsedHost.
      takenOnOtherHost: 0,
      // With the fragment kept (a route, or stripFragment off), before or after the parse.
      takenKeepingFragment: 0,
      // On a link whose session ids the fast path removed (withoutSessionIds).
      takenWithoutSessionIds: 0,
    };
    const check = (input: string, options: NormalizeOptions | undefined): Outcome => {
      const full = attempt(() => explain(input, options).canonical);
      const fast = attempt(() => normalize(input, options));
      assert.deepEqual(
        fast,
        full,
        `normalize vs explain of ${JSON.stringify(input)} with ${JSON.stringify(options)}`,
      );
      if (!full.ok) return full;
      const { paramsStripped } = explain(input, options);
      const resolved = resolveNormalizeOptions(options);
      const lookup = resolved.rules.length === 0 ? undefined : ruleLookup(resolved.rules);
      const url = parseInput(input, resolved.defaultScheme).url;
      const answers: [string | undefined, string[], "parsed" | "text"][] = [];
      const parsedStripped: string[] = [];
      answers.push([
        canonicalFastPath(url.href, url.hostname, resolved, lookup, parsedStripped, true),
        parsedStripped,
        "parsed",
      ]);
      const textStripped: string[] = [];
      answers.push([canonicalFromText(input, resolved, lookup, textStripped), textStripped, "text"]);
      for (const [answer, stripped, mode] of answers) {
        if (answer === undefined) {
          if (mode === "parsed") reached.refused++;
          else reached.refusedFromText++;
          continue;
        }
        const where = `fast path (${mode}) of ${JSON.stringify(input)} with ${JSON.stringify(options)}`;
        assert.equal(answer, full.value, where);
        if (answer.includes("#")) reached.takenKeepingFragment++;
        if (
          resolved.removeSessionIds &&
          (removePathSessionIds(url.pathname) !== url.pathname ||
            removeQuerySessionIds(url.search.slice(1)) !== url.search.slice(1))
        )
          reached.takenWithoutSessionIds++;
        assert.deepEqual(stripped, paramsStripped, `stripped names, ${where}`);
        if (mode === "text") {
          reached.takenFromText++;
          if (serializedHostEnd(input) === -1) reached.takenFromNearText++;
          if (REPAIRED_ON_TEXT.test(input.split("#")[0] as string)) reached.takenFromTextRepaired++;
          if (ENCODED_BY_PARSER.test(input.split("#")[0] as string)) reached.takenFromTextEncoded++;
          if (!/^https?:\/\/[a-z0-9.:-]*(?:[/?#]|$)/i.test(input) || url.hostname.endsWith("."))
            reached.takenOnOtherHost++;
          continue;
        }
        reached.taken++;
        if (answer.includes("?")) reached.takenWithQuery++;
        if (answer !== url.href.split("#")[0]) reached.takenRebuilt++;
        // The answer rests on the repairs: a trailing host dot (refused without `repair`), or an
        // escape to normalize, a character the normalization encodes or a dot segment in the href.
        // (The path and query only: an IPv6 host's brackets are no repair.)
        const repairs = REPAIRED_ON_TEXT.test(url.pathname + url.search);
        if (canonicalFastPath(url.href, url.hostname, resolved, lookup, [], false) === undefined || repairs)
          reached.takenRepaired++;
        if (repairs) reached.takenRepairedEscapes++;
        if (stripped.length > 0) reached.takenStripped++;
        if (input.includes("#")) reached.takenWithFragment++;
        if (lookup !== undefined) reached.takenOnRuleList++;
        if (resolved.preset === "rfc3986") reached.takenRfc3986++;
      }
      return full;
    };
    fc.assert(
      fc.property(
        fc.oneof(
          { weight: 3, arbitrary: urlish },
          { weight: 3, arbitrary: hostileUrl },
          { weight: 3, arbitrary: nearSerialized },
          { weight: 1, arbitrary: nestedWrappers.map((w) => w.url) },
        ),
        fc.constantFrom(...optionSets),
        suffixes,
        (raw, options, suffix) => {
          const first = check(raw, options);
          if (!first.ok) return;
          // The canonical form: a fixed point, the fast path's case; then one more thing on it.
          check(first.value, options);
          check(first.value + suffix, options);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 20, `${branch}: only ${count} checks in ${RUNS} runs reached it`);
  });
});
