import { UrlError } from "../errors/url-error.js";
import { applyParts, DeclaredRule, type RewrittenParts } from "../rules/declared-rule.js";
import type { DomainRule } from "../rules/domain-rule.js";
import { checkUrlLength, MAX_URL_LENGTH } from "../url/max-url-length.js";
import { checkHttpUrl, parseInput } from "../url/parse-input.js";
import { normalizePercentEncoding } from "../url/percent-encoding.js";
import { joinQuery, type QueryParam, sortQueryParams, splitQuery } from "../url/query-params.js";
import { type SerializedUrl, serializedAuthority, serializedUrl } from "../url/serialized-host.js";
import type { UrlParts } from "../url/url-parts.js";
import { userinfoOf } from "../url/userinfo.js";
import { canonicalFastPath, canonicalFromAuthority } from "./canonical-fast-path.js";
import type { Explanation, ExplanationStep } from "./explanation.js";
import { type GenericResult, genericPass, normalizePath, removeMatching } from "./generic-pass.js";
import { type HostFacts, hostFacts, withExemptions } from "./host-options.js";
import { MAX_KEPT_FRAGMENT_LENGTH } from "./max-kept-fragment.js";
import type { NormalizeOptions } from "./normalize-options.js";
import {
  isPresetDefault,
  type ResolvedNormalizeOptions,
  resolveNormalizeOptions,
} from "./resolve-normalize-options.js";
import { type RuleLookup, ruleLookup } from "./rule-lookup.js";
import { ruleNoiseFor } from "./rule-noise.js";
import { ruleTextGate } from "./rule-text-gate.js";
import { ruleFromText, type TargetReader } from "./rule-text-lane.js";
import type { TrackingLayerAction } from "./tracking-layer.js";

// An unwrapped link (google.com/url?q=…) goes through the whole pipeline again, one wrapper at a
// time; a wrapper inside a wrapper is real (AMP inside a Google redirect), a chain longer than this
// is a loop or an attack. Past it the input is refused: stopping at the wrapper would return a key
// that a second normalization changes.
const MAX_UNWRAP_DEPTH = 8;

/**
 * Turns `url` into its canonical form, offline. With the default `identity` preset: the generic
 * pass, the first matching domain rule, a final tracking pass. With `rfc3986`: the syntactic
 * normalization table of url_canonicalize, nothing more. Idempotent:
 * `normalize(normalize(x)) === normalize(x)`.
 *
 * Throws `UrlError` (`invalid-url`, `unsupported-scheme`) and, for bad options, `TypeError`.
 * `invalid-url` also means: the input, a rule's rewrite or unwrapped target, or the canonical
 * URL is longer than `MAX_URL_LENGTH` (65,536 characters), or wrapper links (google.com/url?q=…)
 * are nested more than 8 deep (one level peeled per round, of any kind). Every bound fails the same way each time, so the result stays a fixed point.
 *
 * @example
 * ```ts
 * normalize("HTTP://Example.COM:80/a/./b/../c/?gclid=1"); // "http://example.com/a/c"
 * normalize("twitter.com/jack/status/20?s=20");          // "https://x.com/jack/status/20"
 * ```
 */
export function normalize(url: string, options?: NormalizeOptions): string {
  const resolved = resolveNormalizeOptions(options);
  if (typeof url !== "string" || url.length > MAX_URL_LENGTH) return run(url, resolved, undefined).canonical;
  // run()'s text lane, without a result record for a link settled on its text.
  const read = readText(url, resolved);
  if (typeof read === "string") return read;
  return runParsed(read ?? parseInput(url, resolved.defaultScheme).url, resolved, undefined, 0, url)
    .canonical;
}

/**
 * Like {@link normalize}, and says how: every stage's URL, the rule applied and the parameters
 * stripped.
 *
 * @example
 * ```ts
 * explain("https://example.com/?utm_source=x&b=1").paramsStripped; // ["utm_source"]
 * ```
 */
export function explain(url: string, options?: NormalizeOptions): Explanation {
  const steps: ExplanationStep[] = [];
  const result = run(url, resolveNormalizeOptions(options), steps);
  return {
    input: url,
    canonical: result.canonical,
    ruleApplied: result.ruleApplied,
    paramsStripped: result.stripped,
    steps,
  };
}

/**
 * {@link normalize} with already-resolved options and no explanation: the resolver's per-hop form.
 * A `URL` stands for its own href with the parse already done (the resolver holds one for every
 * Location it resolves); it is only read, and must be http(s) with a host.
 *
 * @example
 * ```ts
 * canonicalWith("Example.com", resolveNormalizeOptions({ preset: "rfc3986" })); // "http://example.com/"
 * ```
 */
export function canonicalWith(url: string | URL, options: ResolvedNormalizeOptions): string {
  return runEither(url, options, undefined).canonical;
}

/**
 * {@link normalize} for callers that hold already-resolved options (the resolver runs it once per
 * resolution). A `URL` is taken as in {@link canonicalWith}.
 *
 * @example
 * ```ts
 * normalizeResolved("Example.com", resolveNormalizeOptions({ preset: "rfc3986" })).canonical; // "http://example.com/"
 * ```
 */
export function normalizeResolved(
  url: string | URL,
  options: ResolvedNormalizeOptions,
): {
  canonical: string;
  ruleApplied: string | null;
  stripped: string[];
  afterGeneric: string;
  afterRule: string;
} {
  const steps: ExplanationStep[] = [];
  const { canonical, ruleApplied, stripped } = runEither(url, options, steps);
  // A plain loop and a literal: find/findLast with closures and an object spread cost three times
  // the normalization itself here (measured: 3.9 µs against 1.0 µs for canonicalWith), and the
  // resolver runs this once per resolution.
  let afterGeneric: string | undefined;
  let afterRule: string | undefined;
  for (const step of steps) {
    if (step.stage === "generic") afterGeneric ??= step.url;
    else if (step.stage === "rule") afterRule = step.url;
  }
  afterGeneric ??= canonical;
  return { canonical, ruleApplied, stripped, afterGeneric, afterRule: afterRule ?? afterGeneric };
}

interface RunResult {
  canonical: string;
  ruleApplied: string | null;
  /** The names stripped, in input order; {@link NOT_LISTED} when the caller passed no `steps`. */
  stripped: string[];
}

// normalize() and canonicalWith() read only the canonical form: for them (no `steps`) the names
// stripped are not ordered and deduplicated, one Set and one array fewer per link that lost some.
const NOT_LISTED: string[] = Object.freeze([]) as unknown as string[];

// normalize() and explain() take strings only (api.md); a parsed URL is the resolver's shortcut.
function runEither(
  input: string | URL,
  options: ResolvedNormalizeOptions,
  steps: ExplanationStep[] | undefined,
): RunResult {
  return input instanceof URL
    ? runParsed(checkHttpUrl(input), options, steps, 0, input.href)
    : run(input, options, steps);
}

function run(
  input: string,
  options: ResolvedNormalizeOptions,
  steps: ExplanationStep[] | undefined,
): RunResult {
  if (typeof input !== "string") throw new TypeError(`url must be a string, got ${typeof input}`);
  // Refused before any work: trimming, the parse and every pass below are linear in it.
  checkUrlLength(input, "the input", input);
  if (steps === undefined) {
    const read = readText(input, options);
    if (typeof read === "string") return { canonical: read, ruleApplied: null, stripped: NOT_LISTED };
    if (read !== undefined) return runParsed(read, options, steps, 0, input);
  }
  return runParsed(parseInput(input, options.defaultScheme).url, options, steps, 0, input);
}

/**
 * The text lane: most shared links are spelled as the parser would spell them (serializedHostEnd).
 * On a host no rule claims, the cheap cases settle on the text itself, with no parse at all (the
 * key comes back); a text the parser would leave as it is (a rule's link, most often) is read off
 * the text, with no parse and no getter call per part (its parts come back); anything else must be
 * parsed (undefined). One host name string serves every probe of the host, so its hash is computed
 * once. explain() never takes it, and the property tests compare the two. Only the key is read
 * after it (normalize, canonicalWith): no list of stripped names is made.
 */
function readText(
  input: string,
  options: ResolvedNormalizeOptions,
  inTarget = false,
): string | SerializedUrl | undefined {
  const authority = serializedAuthority(input);
  if (authority === undefined) return undefined;
  const lookup = lookupFor(options);
  // The authority's record is shared by its links: with a preset's own options it keeps the host's
  // facts, so a link pays no hash of its host name (hostFacts' probe) and no compare of it. Only
  // those: other options objects are made per call, and 1,024 records holding one each would keep
  // them alive (30 MiB for 6,000 calls with 400 names each: tests/pipeline/host-memo-bounds).
  let facts: HostFacts;
  const cache = authority.cache;
  if (cache !== undefined && cache.key === options) facts = cache.value as HostFacts;
  else {
    facts = hostFacts(options, lookup, authority.hostname);
    if (isPresetDefault(options)) authority.cache = { key: options, value: facts };
  }
  if (!facts.claimed) {
    const fast = canonicalFromAuthority(input, authority, options, lookup, undefined, facts);
    if (fast !== undefined) return fast;
  }
  // serializedUrl and the rule text lane read no port and a host as the generic pass leaves it (no
  // trailing dot): a text with either is parsed.
  const { end, hostname } = authority;
  if (
    !authority.serialized ||
    end !== (input.charCodeAt(4) === 0x3a ? 7 : 8) + hostname.length ||
    hostname.charCodeAt(hostname.length - 1) === 0x2e
  )
    return undefined;
  const read = ruleFromText(input, end, hostname, options, lookup, facts, inTarget ? undefined : readTarget);
  return read ?? serializedUrl(input, end, hostname);
}

/**
 * The rule text lane's {@link TargetReader}: a wrapper's target settled by the text lanes, one level
 * only (a wrapper in it is the pipeline's, which counts the depth); `undefined` where they would
 * parse it. Exported for the lane's property test, which counts the wrappers it settles.
 *
 * @example
 * ```ts
 * readTarget("https://example.com/a?utm_source=x", resolveNormalizeOptions(undefined)); // "https://example.com/a"
 * ```
 */
export function readTarget(target: string, options: ResolvedNormalizeOptions): string | undefined {
  const read = readText(target, options, true);
  return typeof read === "string" ? read : undefined;
}

function lookupFor(options: ResolvedNormalizeOptions): RuleLookup | undefined {
  return options.rules.length === 0 ? undefined : ruleLookup(options.rules);
}

function runParsed(
  url: URL | SerializedUrl,
  options: ResolvedNormalizeOptions,
  steps: ExplanationStep[] | undefined,
  depth: number,
  raw: string,
): RunResult {
  const lookup = lookupFor(options);
  // Read once: each read of the getter is a new string, and every Map and Set probe below would
  // hash it again.
  const hostname = url.hostname;
  // The host's rule claim and tracking options, from one probe (the fast path would ask again).
  const facts = hostFacts(options, lookup, hostname);
  if (steps === undefined && !facts.claimed) {
    // Most links are canonical already or nearly: checked stage by stage on the parsed href, the
    // cheap cases settle here (canonical-fast-path.ts), with the generic pass's repairs that the
    // text lane leaves to a parse. explain() never takes it, so it runs the whole pipeline, which
    // is what the fast path is tested against. A claimed host goes straight to the rules.
    const fast = canonicalFastPath(url.href, hostname, options, lookup, undefined, true, facts);
    if (fast !== undefined) return { canonical: fast, ruleApplied: null, stripped: NOT_LISTED };
  }
  steps?.push({ stage: "parse", url: url.href });
  // withExemptions(options, lookup, hostname), already probed.
  const hostOptions = facts.options;
  const generic = genericPass(url, hostOptions, hostname, steps !== undefined);
  steps?.push({ stage: "generic", url: generic.href });
  // The parse percent-encodes (up to 9 characters for one), so the bound is checked again here.
  checkUrlLength(generic.href, "the normalized URL", generic.href);
  // A route fragment (#/inbox, #!/projects/12) selects the page of a single-page app: kept even
  // when fragments are stripped, as is every fragment with stripFragment: false (issue 22).
  const keptFragment =
    generic.fragment !== null && (!options.stripFragment || isRouteFragment(generic.fragment))
      ? generic.fragment
      : null;
  const withFragment = keptFragment === null ? generic.href : `${generic.href}#${keptFragment}`;
  if (withFragment.length > MAX_URL_LENGTH) checkUrlLength(withFragment, "the normalized URL", withFragment);

  // Rules see the generic URL without its fragment; the fragment is offered only to a rule that
  // keeps it. The host prefilter spares the URL parse for hosts no rule claims.
  // facts.claimed is mayMatch's answer for the host the generic pass nearly always leaves as it is.
  if (
    lookup === undefined ||
    !(generic.hostname === hostname ? facts.claimed : lookup.mayMatch(generic.hostname))
  )
    return unchangedResult(generic, withFragment, steps, options, depth, raw);
  let rule: DomainRule | undefined;
  let declared: DeclaredRule | undefined;
  let output: URL | RewrittenParts | undefined;
  let strip: readonly string[] | undefined;
  if (lookup.findParts !== undefined) {
    // Declarative rules only: they read the generic pass's parts, which are what a parse of
    // generic.href would give (tests/properties/generic-parts.property.test.ts), minus the parse;
    // the record itself is their input (no copy of its parts per link).
    declared = lookup.findParts(generic);
    if (declared === undefined) return unchangedResult(generic, withFragment, steps, options, depth, raw);
    if (generic.fragment !== null && keepsFragment(declared, generic.fragment))
      generic.hash = `#${generic.fragment}`;
    rule = declared;
    // Read on the input: the rule's stripParams apply only where one of its patterns did.
    strip = declared.stripParamsFor(generic);
    output = applyDeclared(declared, generic, generic.params);
  } else {
    // Code rules are handed a URL; a list whose code rules say from the text that they leave the
    // link alone (the ClearURLs pack) spares building it.
    const gate = ruleTextGate(lookup);
    if (gate !== undefined && !gate(generic.hostname, generic.href))
      return unchangedResult(generic, withFragment, steps, options, depth, raw);
    const ruleInput = new URL(generic.href);
    rule = lookup.find(ruleInput);
    if (rule === undefined) return unchangedResult(generic, withFragment, steps, options, depth, raw);
    if (generic.fragment !== null && keepsFragment(rule, generic.fragment)) ruleInput.hash = generic.fragment;
    strip = rule.stripParamsFor !== undefined ? rule.stripParamsFor(ruleInput) : rule.stripParams;
    output = applyRule(rule, ruleInput);
  }
  if (output === undefined) return unchangedResult(generic, withFragment, steps, options, depth, raw);
  steps?.push({ stage: "rule", url: output.href, rule: rule.name });
  // The message is built only for a rewrite over the bound (it was a new string per rule link).
  if (output.href.length > MAX_URL_LENGTH)
    checkUrlLength(output.href, `the output of rule "${rule.name}"`, generic.href);

  // The rule no longer claims its own output (it moved the link to another site), or it unwrapped
  // one: the new link takes the whole pipeline from the start. An unwrap rule's output may be a
  // wrapper of its own kind again (google.com/url?q=google.com/url?q=…), peeled in the next round.
  // A declarative rule's output on its own hosts is its own (a rewrite need not land on a path it
  // declares); elsewhere, or any unwrap, the new link starts over.
  // A rewrite that keeps the host is on the host the rule was found for.
  const claimed =
    rule instanceof DeclaredRule
      ? output.hostname === generic.hostname || rule.ownsHost(output)
      : rule.match(output as URL);
  if (!claimed || rule.declaration?.unwrap !== undefined) {
    if (depth >= MAX_UNWRAP_DEPTH) throw tooDeep(raw, rule.name);
    const inner = runParsed(
      output instanceof URL ? output : new URL(output.href),
      options,
      steps,
      depth + 1,
      raw,
    );
    return {
      canonical: inner.canonical,
      ruleApplied: inner.ruleApplied ?? rule.name,
      stripped: inner.stripped,
    };
  }
  // The output's host decides (a rule may move the host): the second run starts from it. Only
  // explain() and normalizeResolved read which names went (they pass `steps`).
  const final = finalPass(
    output,
    rule,
    strip,
    output.hostname === hostname ? hostOptions : withExemptions(options, lookup, output.hostname),
    generic.inputParams,
    steps !== undefined,
    hostOptions,
  );
  // The rule's output carries a fragment only when the rule keeps it; one the options keep
  // (every fragment, or a route) goes back on unless the rule put one there.
  const canonical =
    keptFragment !== null && !final.href.includes("#") ? `${final.href}#${keptFragment}` : final.href;
  checkUrlLength(canonical, "the canonical URL", generic.href);
  const stripped =
    steps === undefined
      ? NOT_LISTED
      : orderByInput(generic.inputParams, [...generic.stripped, ...final.removed]);
  return finish(
    { canonical, ruleApplied: rule.name, stripped },
    generic.inputParams,
    steps,
    options,
    depth,
    raw,
  );
}

function unchangedResult(
  generic: GenericResult,
  withFragment: string,
  steps: ExplanationStep[] | undefined,
  options: ResolvedNormalizeOptions,
  depth: number,
  raw: string,
): RunResult {
  // The generic pass removes in input order already: only repeated names need folding.
  const result: RunResult = {
    canonical: withFragment,
    ruleApplied: null,
    stripped: steps === undefined ? NOT_LISTED : unique(generic.stripped),
  };
  return finish(result, generic.inputParams, steps, options, depth, raw);
}

// The tracking layers, then the `final` step. A layer that unwraps hands the target to the whole
// pipeline, which records its own steps.
function finish(
  result: RunResult,
  inputParams: readonly QueryParam[],
  steps: ExplanationStep[] | undefined,
  options: ResolvedNormalizeOptions,
  depth: number,
  raw: string,
): RunResult {
  if (options.trackingLayers.length > 0) {
    const layered = applyLayers(result, inputParams, steps, options, depth, raw);
    if (layered.unwrapped) return layered.result;
    result = layered.result;
  }
  steps?.push({ stage: "final", url: result.canonical });
  return result;
}

/**
 * Runs the tracking layers over a result, in order: each may remove parameters from the query
 * (never one the caller keeps) or unwrap. A layer that throws, or unwraps to no absolute http(s)
 * URL, to the URL itself, or past the unwrap depth, is skipped: no layer can make a link fail.
 */
function applyLayers(
  result: RunResult,
  inputParams: readonly QueryParam[],
  steps: ExplanationStep[] | undefined,
  options: ResolvedNormalizeOptions,
  depth: number,
  raw: string,
): { result: RunResult; unwrapped: boolean } {
  const hashAt = result.canonical.indexOf("#");
  let href = hashAt === -1 ? result.canonical : result.canonical.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : result.canonical.slice(hashAt);
  const removed: string[] = [];
  for (const layer of options.trackingLayers) {
    let action: TrackingLayerAction | undefined;
    try {
      action = layer.inspect(href);
    } catch {
      continue;
    }
    if (action === undefined || action === null || typeof action !== "object") continue;
    if ("unwrap" in action) {
      if (depth >= MAX_UNWRAP_DEPTH || typeof action.unwrap !== "string") continue;
      // checkOutput parses without a base (Node 20 has no URL.parse): a relative target is none.
      const target = checkOutput(action.unwrap);
      if (target === undefined || target.href === href) continue;
      if (target.href.length > MAX_URL_LENGTH) continue;
      steps?.push({ stage: "layer", url: target.href, rule: layer.name });
      const inner = runParsed(target, options, steps, depth + 1, raw);
      return {
        result: { canonical: inner.canonical, ruleApplied: inner.ruleApplied, stripped: inner.stripped },
        unwrapped: true,
      };
    }
    const remove = (action as { remove?: unknown }).remove;
    if (typeof remove !== "function") continue;
    const q = href.indexOf("?");
    if (q === -1) continue;
    const params = splitQuery(href.slice(q + 1));
    const keep = options.keepParams;
    let dropped = 0;
    const kept = params.filter((p) => {
      let drop = false;
      try {
        drop = !keep.includes(p.name) && (remove as (name: string) => boolean)(p.name) === true;
      } catch {}
      if (drop) {
        removed.push(p.name);
        dropped++;
      }
      return !drop;
    });
    if (dropped === 0) continue;
    href = href.slice(0, q) + (kept.length > 0 ? `?${joinQuery(kept)}` : "");
    steps?.push({ stage: "layer", url: href + hash, rule: layer.name });
  }
  if (removed.length === 0) return { result, unwrapped: false };
  return {
    result: {
      canonical: href + hash,
      ruleApplied: result.ruleApplied,
      stripped:
        steps === undefined ? NOT_LISTED : orderByInput(inputParams, [...result.stripped, ...removed]),
    },
    unwrapped: false,
  };
}

function tooDeep(raw: string, rule: string): UrlError {
  // The input is quoted cut short: it may be up to MAX_URL_LENGTH long, the message stays small.
  const quoted = raw.length > 200 ? `${JSON.stringify(raw.slice(0, 200))}…` : JSON.stringify(raw);
  return new UrlError(
    "invalid-url",
    `invalid URL ${quoted}: links wrapped in links more than ${MAX_UNWRAP_DEPTH} deep (canonurl unwraps at most ${MAX_UNWRAP_DEPTH}; the last rule was "${rule}")`,
    { url: raw },
  );
}

// A Set, not includes(): 10,000 distinct stripped names made the old scan quadratic.
function unique(names: readonly string[]): string[] {
  if (names.length < 2) return names.length === 0 ? [] : [names[0] as string];
  return [...new Set(names)];
}

/**
 * Whether a fragment (without `#`) is a client-side route: `/…` (`#/inbox`) or a hashbang `!…`
 * (`#!/projects/12`), which single-page apps read to pick the page shown.
 */
function isRouteFragment(fragment: string): boolean {
  const c = fragment.charCodeAt(0);
  return (c === 0x2f || c === 0x21) && fragment.length > 1;
}

function keepsFragment(rule: DomainRule, fragment: string): boolean {
  const keep = (rule as { keepFragment?: RegExp }).keepFragment;
  return keep !== undefined && fragment.length <= MAX_KEPT_FRAGMENT_LENGTH && keep.test(fragment);
}

// A declarative rule returns its rewrite as parts already in serialized form (no parse needed;
// http(s) and a host by construction), a URL (a rewrite the parser may change, or an unwrapped
// target, parsed once by the rule) or, for parts it does not claim (never after a match), the
// parts themselves: treated as no output.
function applyDeclared(
  rule: DeclaredRule,
  parts: UrlParts,
  params: readonly QueryParam[] | undefined,
): URL | RewrittenParts | undefined {
  let out: ReturnType<DeclaredRule[typeof applyParts]>;
  try {
    out = rule[applyParts](parts, params);
  } catch (error) {
    // The length bound is not a rule's failure to be skipped: it fails the URL (see normalize).
    if (error instanceof UrlError) throw error;
    return undefined;
  }
  if (out === parts) return undefined;
  if (out instanceof URL) return checkOutput(out);
  return out as RewrittenParts; // the given parts were ruled out above
}

// link-canonical §10: a failing domain rule is best-effort — the URL continues without it. A rule
// that returns something that is not an http(s) URL is treated the same way.
function applyRule(rule: DomainRule, input: URL): URL | undefined {
  let out: URL | string;
  try {
    out = rule.apply(input);
  } catch {
    return undefined;
  }
  return checkOutput(out);
}

function checkOutput(out: URL | string): URL | undefined {
  try {
    const url = typeof out === "string" ? new URL(out) : out;
    if (
      !(url instanceof URL) ||
      (url.protocol !== "http:" && url.protocol !== "https:") ||
      url.hostname === ""
    )
      return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/** What the final pass reads of a rule's output: a parsed URL or a declarative rule's parts. */
type FinalInput = Pick<URL, "protocol" | "username" | "password" | "host" | "pathname" | "search" | "hash">;

/**
 * link-canonical §15: generic normalization runs again after the rule, tracking only: the default
 * tracking list plus the rule's own `stripParams`. The rule's path shape (Instagram's trailing
 * slash) is final; parameters the rule dropped are counted as stripped.
 */
function finalPass(
  url: FinalInput,
  rule: DomainRule,
  strip: readonly string[] | undefined,
  options: ResolvedNormalizeOptions,
  inputParams: readonly QueryParam[],
  listRemoved: boolean,
  genericOptions: ResolvedNormalizeOptions,
): { href: string; removed: string[] } {
  // A declarative rewrite that skipped the parse is made of percent-normalized parts and literal
  // text without escapes: normalizing its path and query again would change nothing.
  const normalized = !(url instanceof URL);
  const keep = options.keepParams;
  // Names are pushed only where they are read (explain) or compared (keepParams).
  const removed: string[] = listRemoved || keep.length > 0 ? [] : NOT_LISTED;
  const user = userinfoOf(url.username, url.password);
  let href = `${url.protocol}//${user}${url.host}${normalized ? url.pathname : normalizePath(url.pathname)}`;
  const search = url.search;
  if (search.length <= 1 && keep.length === 0) {
    // Most rules end in a query-free form (x.com/u/status/1, /p/ID/): every input parameter went.
    if (listRemoved) for (const { name } of inputParams) removed.push(name);
    return { href: withHash(href, url, rule, options), removed };
  }
  // A rewrite handed the generic pass's pairs gives its own back: no third split of the query.
  let params: readonly QueryParam[] =
    search.length > 1
      ? normalized
        ? ((url as RewrittenParts).params ?? splitQuery(search.slice(1)))
        : splitQuery(normalizePercentEncoding(search.slice(1), "query"))
      : [];
  if (!listRemoved && keep.length === 0) {
    // What the final pass keeps, without the names of what the rule dropped: no Set of names.
    // The rewrite's pairs, when it gave them: its query is their join (RewrittenParts.params).
    const given = normalized ? (url as RewrittenParts).params : undefined;
    // Pairs the rule was handed went through this very matcher in the generic pass: unless the
    // rewrite set some, none can go (golden rule links: see bench/README.md, "third pass").
    if (options.stripTracking && !(options === genericOptions && (url as RewrittenParts).handed === true))
      params = removeMatching(params, options.isTracking);
    if (strip !== undefined && strip.length > 0) params = removeMatching(params, ruleNoiseFor(strip));
    if (options.sortParams) params = sortQueryParams(params);
    // Nothing went and nothing moved: the rewrite's own query text stands.
    if (params === given) href += search;
    else if (params.length > 0) href += `?${joinQuery(params)}`;
    return { href: withHash(href, url, rule, options), removed };
  }
  const names = new Set(params.map((p) => p.name));
  // keepParams outranks a rule's allowlist: what the caller keeps comes back after the rule.
  if (keep.length > 0) {
    // A Set once the list is long: keepParams × input pairs was the one product left here.
    const kept = keep.length > 8 ? new Set(keep) : undefined;
    const restored = inputParams.filter(
      (p) => (kept !== undefined ? kept.has(p.name) : keep.includes(p.name)) && !names.has(p.name),
    );
    if (restored.length > 0) params = [...params, ...restored];
    for (const p of restored) names.add(p.name);
  }
  for (const { name } of inputParams) if (!names.has(name)) removed.push(name);
  if (options.stripTracking) params = removeMatching(params, options.isTracking, removed);
  if (strip !== undefined && strip.length > 0)
    params = removeMatching(params, ruleNoiseFor(strip, keep), removed);
  if (options.sortParams) params = sortQueryParams(params);
  if (params.length > 0) href += `?${joinQuery(params)}`;
  return { href: withHash(href, url, rule, options), removed };
}

function withHash(
  href: string,
  url: FinalInput,
  rule: DomainRule,
  options: ResolvedNormalizeOptions,
): string {
  const hash = url.hash;
  return hash.length > 1 && (!options.stripFragment || keepsFragment(rule, hash.slice(1)))
    ? href + hash
    : href;
}

// Linear: a Set for what is already out (includes() here was quadratic in the stripped names).
function orderByInput(inputParams: readonly QueryParam[], removed: readonly string[]): string[] {
  if (removed.length === 0) return [];
  const set = new Set(removed);
  const out = new Set<string>();
  for (const { name } of inputParams) if (set.has(name)) out.add(name);
  for (const name of removed) out.add(name);
  return [...out];
}
