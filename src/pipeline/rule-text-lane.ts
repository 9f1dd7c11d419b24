import {
  type DeclaredRule,
  keepsFragmentText,
  rewriteText,
  type TextRewrite,
  unwrapText,
} from "../rules/declared-rule.js";
import { isEdgeJunk } from "../url/edge-junk.js";
import { MAX_URL_LENGTH } from "../url/max-url-length.js";
import { joinQuery, type QueryParam, sortQueryParams, splitQuery } from "../url/query-params.js";
import {
  canonicalFromSerialized,
  keptFragment,
  keptQuery,
  modelled,
  QUERY_SESSION,
  scan,
} from "./canonical-fast-path.js";
import { removeMatching } from "./generic-pass.js";
import { type HostFacts, withExemptions } from "./host-options.js";
import { MAX_KEPT_FRAGMENT_LENGTH } from "./max-kept-fragment.js";
import type { ResolvedNormalizeOptions } from "./resolve-normalize-options.js";
import type { RuleLookup } from "./rule-lookup.js";
import { ruleNoiseFor } from "./rule-noise.js";
import { removeQuerySessionIds } from "./session-ids.js";
import { sortedQuery } from "./sorted-query.js";
import type { TrackingMatcher } from "./tracking-matcher.js";

/**
 * The key of a link on a host a declarative rule claims, built on the text's offsets, when the
 * parser would leave the text as it is ({@link serializedHostEnd} gave `hostEnd`) and the generic
 * pass would change nothing before the query but trailing slashes (the fast path's own scan finds
 * no escape to normalize, no dot segment, no session-id mark). The rules that claim the host
 * (`facts.rules`) are asked in list order on the generic path, as first-match asks them; the one
 * that claims it gives its rewrite's scheme, host and path ({@link rewriteText}), and the query is
 * the input's pairs less those the generic tracking pass, the rule's allowlist, the pairs it sets
 * and the final pass drop, with the pairs it sets, sorted. No parts, generic or rewrite record and
 * no pair objects while the kept pairs are in order; a fragment the rule keeps on the rewritten
 * path follows. When no rule claims the link, the generic answer is the unclaimed fast path's. A
 * wrapper (an unwrap rule that finds a target, read on the wrapper's text: {@link unwrapText})
 * gives its target's key as `readTarget` settles it on the target's text, one level deep: without
 * `readTarget` (inside a target) a wrapper is refused.
 *
 * `undefined` wherever it does not model a stage: then the whole pipeline runs. It refuses options
 * beyond the identity preset's steps (layers, keepParams, https or www forced, index documents, a
 * trailing slash added), a fragment the options keep (a route, stripFragment off), one the rule
 * tests that the parser would change (keptFragment), a wrapper whose target the text lanes do
 * not settle (or that repeats its parameter, or keeps a query on a path form), a rewrite the
 * parser might change or that lands off the rule's hosts, and a key over the length bound.
 * tests/properties/rule-text-lane.property.test.ts and rule-text-lane-unwrap.property.test.ts hold
 * it against explain() and count both answers.
 *
 * @example
 * ```ts
 * const options = resolveNormalizeOptions(undefined);
 * const lookup = ruleLookup(options.rules);
 * const facts = hostFacts(options, lookup, "youtu.be");
 * ruleFromText("https://youtu.be/abc?si=x", 16, "youtu.be", options, lookup, facts); // "https://www.youtube.com/watch?v=abc"
 * ```
 */
export function ruleFromText(
  input: string,
  hostEnd: number,
  hostname: string,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
  facts: HostFacts,
  readTarget?: TargetReader,
): string | undefined {
  const rules = facts.rules;
  if (rules === undefined || !laneModelled(options)) return undefined;
  let end = input.indexOf("#", hostEnd);
  if (end === -1) end = input.length;
  else {
    // A route or, with stripFragment off, any fragment stays; a blank may hide a route (see the
    // fast path).
    const c = input.charCodeAt(end + 1);
    if (!options.stripFragment || ((c === 0x2f || c === 0x21) && end + 2 < input.length) || c <= 0x20)
      return undefined;
  }
  let queryAt = input.indexOf("?", hostEnd);
  if (queryAt > end) queryAt = -1;
  const pathEnd = queryAt === -1 ? end : queryAt;
  // The generic path: trailing slashes stripped (never the root's), as applyTrailingSlash does.
  let pathOut = pathEnd;
  if (options.trailingSlash === "strip" && pathEnd - hostEnd > 1 && input.charCodeAt(pathEnd - 1) === 0x2f) {
    while (pathOut - 1 > hostEnd && input.charCodeAt(pathOut - 2) === 0x2f) pathOut--;
    pathOut = pathOut - 1 === hostEnd ? hostEnd + 1 : pathOut - 1;
  }
  const path = pathOut === hostEnd ? "/" : input.slice(hostEnd, pathOut);
  // First-match on the generic path, before the scan: most links refused here (an unwrap form's
  // path) then cost the pipeline no scan more. The answers only stand if the scan below passes.
  let rule: DeclaredRule | undefined;
  let rewrite: TextRewrite | undefined;
  let target: string | undefined;
  const protocol = input.charCodeAt(4) === 0x3a ? "http:" : "https:";
  try {
    for (const r of rules) {
      if (r.declaration.unwrap !== undefined) {
        // A wrapper: the target the rule would hand the pipeline, read on the wrapper's query
        // as the generic pass leaves it (the tracking pass's drops asked here, the rest by the
        // scan below). Inside a target (no readTarget) a wrapper is the pipeline's: it counts
        // the depth.
        const dropped = options.stripTracking ? facts.options.isTracking : undefined;
        const from = queryAt === -1 ? end : queryAt + 1;
        const answer = r[unwrapText](hostname, path, protocol, input, from, end, dropped);
        if (answer === false) continue;
        if (answer === undefined || readTarget === undefined) return undefined;
        rule = r;
        target = answer;
        break;
      }
      const answer = r[rewriteText](hostname, path, protocol);
      if (answer === false) continue;
      if (answer === undefined) return undefined;
      rule = r;
      rewrite = answer;
      break;
    }
  } catch {
    // A template filled past MAX_URL_LENGTH from a path not yet known to be normal (escapes the
    // generic pass decodes are longer): the pipeline fills it from the normalized path.
    return undefined;
  }
  // Anything the parser or the generic pass would change before the query, bar trailing slashes
  // (the fast path's scan); a session-id mark in the query is asked of the stage itself.
  const marks = scan(input, hostEnd, pathEnd, end, options.removeSessionIds);
  if (marks !== 0) {
    if (marks !== QUERY_SESSION) return undefined;
    const query = input.slice(queryAt + 1, end);
    if (removeQuerySessionIds(query) !== query) return undefined;
  }
  // The wrapper's own fragment goes with it: the pipeline's answer is the target's.
  if (target !== undefined) return unwrapped(target, options, readTarget as TargetReader);
  // No rule claims the link: the generic pass alone, as on a host no rule claims.
  if (rule === undefined || rewrite === undefined)
    return canonicalFromSerialized(input, hostEnd, hostname, options, lookup, undefined, {
      claimed: false,
      options: facts.options,
    });
  // A fragment the rule keeps on this path (GitHub's #L10 on a file, Sheets' #gid=0) follows the
  // query, as the final pass puts it back; one it does not keep goes.
  let hash = "";
  if (end + 1 < input.length && rule.keepFragment !== undefined) {
    // Kept or not, the rule tests the fragment as the parser and the generic pass leave it (the
    // fast path's reading: percent-normalized, refused where a parse would change it).
    const fragment = keptFragment(input, end);
    if (fragment === undefined) return undefined;
    if (fragment.length <= MAX_KEPT_FRAGMENT_LENGTH && rule[keepsFragmentText](fragment, rewrite.path))
      hash = `#${fragment}`;
  }
  const query = ruleQuery(input, queryAt, end, rewrite, hostname, facts, options, lookup);
  const key = query === "" ? rewrite.prefix + hash : `${rewrite.prefix}?${query}${hash}`;
  // Past the bound the pipeline throws its own error.
  return key.length > MAX_URL_LENGTH ? undefined : key;
}

/**
 * How {@link ruleFromText} settles an unwrapped target: the key the text lanes give for `text`
 * (normalize's, with no unwrap of its own), or `undefined` where they would parse it.
 *
 * @example
 * ```ts
 * const read: TargetReader = (text, options) => (text === "https://example.com/" ? text : undefined);
 * ```
 */
export type TargetReader = (text: string, options: ResolvedNormalizeOptions) => string | undefined;

// The pipeline parses the target (new URL(target), no parseInput), refuses an href over the length
// bound and runs the target through again; the text lanes read it as normalize(target) would, so
// only text both read alike is handed over: no blank, control or String#trim white space at either
// end (parseInput trims the last, the parser does not), and short enough that its href cannot pass
// the bound (the unclaimed lane repairs on the text what the parse encodes, up to 9 characters for
// one, plus the root's "/"). Refused, or failing (its own error is the pipeline's to throw), the
// wrapper is parsed. The scan refuses white space at the end today as well (removing the check
// leaves the tests green): the check states the lane's own condition rather than lean on the
// scan's, which other lanes tune.
//
// Golden wrapper links (36, interleaved with the start of this change, CPU time): ~10.4x their
// bare parse through the pipeline, ~5.1x here; the rest is the target's own lane, the wrapper's
// scan and formDecode (bench/README.md, "wrappers and kept fragments").
function unwrapped(
  target: string,
  options: ResolvedNormalizeOptions,
  readTarget: TargetReader,
): string | undefined {
  if (
    target.length > MAX_TARGET_TEXT ||
    isEdgeJunk(target.charCodeAt(0)) ||
    isEdgeJunk(target.charCodeAt(target.length - 1))
  )
    return undefined;
  try {
    return readTarget(target, options);
  } catch {
    return undefined;
  }
}

const MAX_TARGET_TEXT = Math.floor((MAX_URL_LENGTH - 1) / 9);

// The query after the generic pass, the rewrite and the final pass: each drops pairs by name
// only and the last sorts, so one filter over the input's pairs, the rewrite's set pairs, and one
// sort give the same pairs. The input's text stands while the kept pairs are in order.
function ruleQuery(
  input: string,
  queryAt: number,
  end: number,
  rewrite: TextRewrite,
  hostname: string,
  facts: HostFacts,
  options: ResolvedNormalizeOptions,
  lookup: RuleLookup | undefined,
): string {
  const set = rewrite.set;
  const hasQuery = queryAt !== -1 && queryAt + 1 < end;
  // Most rule links end query-free (x.com/u/status/1, /p/ID/): no matcher to find.
  if (!hasQuery && set === undefined) return "";
  const tracking = options.stripTracking;
  generic = tracking ? facts.options.isTracking : undefined;
  // The final pass runs with the options of the rewrite's host: on the same host (or one with the
  // same options), the generic pass's matcher, which has dropped its names already.
  final = undefined;
  if (tracking && rewrite.hostname !== hostname) {
    const moved = withExemptions(options, lookup, rewrite.hostname).isTracking;
    if (moved !== generic) final = moved;
  }
  strip = rewrite.strip === undefined || rewrite.strip.length === 0 ? undefined : ruleNoiseFor(rewrite.strip);
  keep = rewrite.keep;
  setNames = rewrite.setNames;
  let kept: string | undefined = "";
  if (hasQuery) {
    kept = keptQuery(input, queryAt + 1, end, drops, undefined);
    if (kept === input) kept = input.slice(queryAt + 1, end);
  }
  let added = NO_PAIRS;
  if (set !== undefined) {
    // The final pass asks the generic matcher about the pairs the rewrite sets, too.
    final ??= generic;
    added = removeMatching(set, finalDrops);
  }
  if (added.length === 0 && kept !== undefined) return kept;
  if (kept === "") return joinQuery(sortQueryParams(added));
  // Out of order or an empty segment, nothing set: sorted on the text where the query is short.
  if (added.length === 0) {
    const sorted = sortedQuery(input, queryAt + 1, end, drops, undefined);
    if (sorted !== undefined) return sorted;
  }
  // Out of order, an empty segment, or pairs set among kept ones: split, filter, sort.
  const pairs =
    kept === undefined ? removeMatching(splitQuery(input.slice(queryAt + 1, end)), drops) : splitQuery(kept);
  return joinQuery(sortQueryParams(added.length === 0 ? pairs : [...added, ...pairs]));
}

// The link's filters, set by ruleQuery for the two matchers below: no closure per link.
let generic: TrackingMatcher | undefined;
let final: TrackingMatcher | undefined;
let strip: TrackingMatcher | undefined;
let keep: ReadonlySet<string> | undefined;
let setNames: readonly string[] | undefined;

// What the final pass drops: the rewrite host's tracking names and the rule's stripParams.
function finalDrops(name: string): boolean {
  return final?.(name) === true || strip?.(name) === true;
}

// What goes of the input's pairs: the generic tracking pass, the allowlist, the names the rewrite
// sets, the final pass.
function drops(name: string): boolean {
  return (
    generic?.(name) === true ||
    (keep !== undefined && !keep.has(name)) ||
    setNames?.includes(name) === true ||
    finalDrops(name)
  );
}

const NO_PAIRS: readonly QueryParam[] = [];

// The options the lane models: the fast path's (modelled) in the identity preset, without
// keepParams, which restores pairs after the rule.
function laneModelled(o: ResolvedNormalizeOptions): boolean {
  return o.preset === "identity" && o.keepParams.length === 0 && modelled(o);
}
