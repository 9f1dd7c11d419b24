import { ownCopy } from "../url/own-copy.js";
import { joinQuery, type QueryParam, splitQuery } from "../url/query-params.js";
import type { UrlParts } from "../url/url-parts.js";
import { userinfoOf } from "../url/userinfo.js";
import type { DeclarativeRule } from "./declarative-rule.js";
import type { DomainRule } from "./domain-rule.js";
import { createHostSet, type HostSet } from "./host-set.js";
import {
  type CompiledPathPattern,
  compilePathPattern,
  matchPathPattern,
  type Parsed,
  slashesFit,
} from "./path-pattern.js";
import { type CompiledRewrite, compileRewrite, rewriteQueryParams } from "./rewrite.js";
import { compileTemplate, fillTemplate, type Template } from "./template.js";
import { decodeWrappedTarget, type WrapperDecoding } from "./wrapper-decoding.js";

interface CompiledPattern {
  readonly match: CompiledPathPattern;
  /**
   * The character after the leading "/" of the pattern's literal prefix, or -1 (a capture comes
   * first): a path without it cannot match, which #patternFor asks before matchPathPattern.
   */
  readonly lead: number;
  readonly rewrite: CompiledRewrite;
  /** The names of the parameters the rewrite sets (compiled once, read per rewrite). */
  readonly setNames: readonly string[];
  /** The rewrite's literal text is all parser-stable (see {@link literalsStable}). */
  readonly stable: boolean;
  /** A "." in the path template's literal text: only then, or with one in a capture, can its output hold a dot segment. */
  readonly literalDot: boolean;
  readonly hosts: HostSet | undefined;
  /** The pattern's own allowlist, in place of the rule's (an empty set keeps none). */
  readonly keep: ReadonlySet<string> | undefined;
  /** The rule's `stripParams` plus the pattern's own: what the final pass strips where it applies. */
  readonly strip: readonly string[] | undefined;
}

interface CompiledUnwrap {
  readonly path: CompiledPathPattern;
  readonly param: string | undefined;
  readonly target: Template | undefined;
  readonly keepQuery: boolean;
  readonly sameHost: boolean;
  readonly decode: WrapperDecoding | undefined;
}

// Only reached for validated declarations, where every pattern compiled once already.
function must<T>(parsed: Parsed<T>): T {
  if (!parsed.ok) throw new Error(`unvalidated rule declaration: ${parsed.message}`);
  return parsed.value;
}

// application/x-www-form-urlencoded, as every wrapper (google.com/url, l.facebook.com) writes it.
// A value without "+" or "%" decodes to itself: the replace and the decode are skipped.
function formDecode(value: string): string {
  const spaced = value.includes("+") ? value.replace(/\+/g, " ") : value;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

// The raw value of the first pair named `name` in `search` ("?" and the query): "" for a bare
// name, undefined when none. Scanned in place rather than split into an array of pairs.
function firstValue(search: string, name: string): string | undefined {
  const n = name.length;
  for (let start = 1; start < search.length; ) {
    let end = search.indexOf("&", start);
    if (end === -1) end = search.length;
    if (end - start >= n && search.startsWith(name, start)) {
      if (end - start === n) return "";
      if (search.charCodeAt(start + n) === 0x3d) return search.slice(start + n + 1, end);
    }
    start = end + 1;
  }
  return undefined;
}

const TAB_OR_NEWLINE = /[\t\n\r]/;

// soleValue's answer for a parameter given more than once.
const REPEATED = Symbol("repeated");

// The raw value of the one pair named `name` in `input` from `from` to `to` (a query without its
// "?"), as firstValue reads it; REPEATED when two pairs have the name: the generic pass sorts pairs
// by name, then value, so the first after the sort is not the first written.
function soleValue(
  input: string,
  from: number,
  to: number,
  name: string,
): string | undefined | typeof REPEATED {
  const n = name.length;
  let found: string | undefined;
  for (let start = from; start < to; ) {
    let end = input.indexOf("&", start);
    if (end === -1 || end > to) end = to;
    if (end - start >= n && input.startsWith(name, start)) {
      let value: string | undefined;
      if (end - start === n) value = "";
      else if (input.charCodeAt(start + n) === 0x3d) value = input.slice(start + n + 1, end);
      if (value !== undefined) {
        if (found !== undefined) return REPEATED;
        found = value;
      }
    }
    start = end + 1;
  }
  return found;
}

/**
 * A rewrite already in WHATWG-serialized form: the parts a parse of `href` would give, so the
 * pipeline can use it without parsing it (see {@link applyParts}).
 *
 * @example
 * ```ts
 * const out: RewrittenParts = { href: "https://x.com/jack", protocol: "https:", username: "",
 *   password: "", hostname: "x.com", host: "x.com", port: "", pathname: "/jack", search: "", hash: "" };
 * ```
 */
export interface RewrittenParts extends UrlParts {
  readonly href: string;
  readonly host: string;
  /**
   * The pairs of `search`, in order (`joinQuery(params)` is `search` without its `?`), when the
   * rule was handed the input's pairs: the final pass then need not split the query again.
   */
  readonly params?: readonly QueryParam[] | undefined;
  /**
   * Every pair of `params` is one of the pairs the rule was handed (it set none, only dropped or
   * kept them): the final pass need not ask the generic pass's tracking matcher about them again.
   */
  readonly handed?: boolean;
}

/**
 * The pipeline's form of `apply`, keyed by a symbol so it stays off the public surface: it takes
 * plain {@link UrlParts} as the generic pass produces them (parser-stable, percent-normalized;
 * other parts make the stability verdict unsound) and returns the rewrite as {@link RewrittenParts} when the rewritten
 * string is one the WHATWG parser would leave as it is (then the parse is skipped), else as a
 * `URL`; an unwrapped target as the parsed `URL` (an http(s) link with a host, read by nothing
 * else); parts it does not claim as they came.
 *
 * @example
 * ```ts
 * const out = rule[applyParts](parts); // RewrittenParts | URL | typeof parts
 * ```
 */
export const applyParts: unique symbol = Symbol("canonurl.applyParts");

/**
 * The rule lookup's form of `match`, keyed by a symbol so it stays off the public surface: for a
 * rule the lookup found by the URL's host name in its host index, so the host is one of the rule's
 * and only the scheme and the path remain to decide. The answer is `match`'s.
 *
 * @example
 * ```ts
 * rule[matchOnHost](parts); // === rule.match(parts) when rule.hosts.has(parts.hostname)
 * ```
 */
export const matchOnHost: unique symbol = Symbol("canonurl.matchOnHost");

/**
 * The rule text lane's form of `applyParts`, keyed by a symbol so it stays off the public surface:
 * for a link on one of the rule's hosts (found through the host index) whose generic path is
 * `path`, read off a text the parser would leave alone. `false`: the rule does not claim the link
 * (first-match goes on); `undefined`: it claims it in a way the lane does not model (an unwrap
 * form's path, a rewrite the parser might change or that lands off the rule's hosts), and the link
 * takes the whole pipeline; else the rewrite (see {@link TextRewrite}).
 *
 * @example
 * ```ts
 * rule[rewriteText]("youtu.be", "/abc", "https:")?.prefix; // "https://www.youtube.com/watch"
 * ```
 */
export const rewriteText: unique symbol = Symbol("canonurl.rewriteText");

/**
 * The rule text lane's form of an unwrap rule's target, keyed by a symbol so it stays off the
 * public surface: for a link on one of the rule's hosts whose generic path is `path` and whose
 * query is `input` from `queryFrom` to `queryEnd` (read off a text the generic pass leaves alone,
 * which the lane checks), the text of the target the pipeline would parse (a `sameHost` path on
 * the wrapper's host, put on it). `false`: no form finds a value, the rule does not claim the link
 * (first-match goes on); `undefined`: a case the lane does not model (the parameter repeated, which
 * the generic pass's sort would reorder by value; a path form that keeps a query the generic pass
 * filters and sorts). `dropped` names what the generic pass's tracking matcher removes before the
 * rule reads the query. Whether the target parses is the caller's to check: the pipeline goes on
 * to the next form, or rule, when it does not.
 *
 * @example
 * ```ts
 * const url = "https://www.google.com/url?q=https://example.com/a";
 * rule[unwrapText]("www.google.com", "/url", "https:", url, 27, url.length, undefined); // "https://example.com/a"
 * ```
 */
export const unwrapText: unique symbol = Symbol("canonurl.unwrapText");

/**
 * The rule text lane's form of the rule's fragment decision: whether the rule keeps `fragment`
 * (without `#`, as the generic pass leaves it) on a link it rewrote to `path`, as its rewrite and
 * the final pass do. The length bound is the caller's (normalize's MAX_KEPT_FRAGMENT_LENGTH).
 *
 * @example
 * ```ts
 * rule[keepsFragmentText]("L10", "/o/r/blob/main/a.ts"); // true for github-v1
 * ```
 */
export const keepsFragmentText: unique symbol = Symbol("canonurl.keepsFragmentText");

/**
 * A declarative rewrite as the rule text lane builds the key from it: `prefix` and a query of the
 * input's pairs that {@link TextRewrite.drops} leaves, plus `set`, less what the final pass strips.
 *
 * @example
 * ```ts
 * const w = rule[rewriteText]("youtu.be", "/abc", "https:"); // { prefix: "https://www.youtube.com/watch", set: [{ name: "v", value: "abc" }], … }
 * ```
 */
export interface TextRewrite {
  /** The scheme, host and path of the rewrite, serialized: `https://www.youtube.com/watch`. */
  readonly prefix: string;
  /** The rewrite's host name. */
  readonly hostname: string;
  /** The pairs the rewrite sets, in template order, or `undefined`. */
  readonly set: readonly QueryParam[] | undefined;
  /** The names of the pairs the rewrite sets: an input pair of one of these names goes. */
  readonly setNames: readonly string[] | undefined;
  /** The allowlist in force: an input pair whose name it lacks goes. */
  readonly keep: ReadonlySet<string> | undefined;
  /** What the final pass strips here (`stripParamsFor`). */
  readonly strip: readonly string[] | undefined;
  /** The rewrite's path: a kept fragment is decided on it ({@link keepsFragmentText}). */
  readonly path: string;
}

// Template text the WHATWG parser leaves as it is in a special URL's path (RFC 3986 path characters,
// no escapes) and in a query (the same without "&" "=" "'" "%", which would split a pair or be
// encoded). Checked once per pattern; see #rewrite for the rest of the argument.
const STABLE_PATH_TEXT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const STABLE_QUERY_TEXT = /^[A-Za-z0-9\-._~!$()*+,;:@/?]*$/;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;

// Whether a rewrite's filled path holds a dot segment the parser would resolve. Its text is the
// template's literals and the captures, so without a "." in either there is none, and the search
// of the whole path is spared: a capture's one-character search is cheaper than the two-character
// one (~25 ns a rule link on golden links, where most rewrites fill ids without a dot).
function dotSegmentIn(p: CompiledPattern, path: string, values: readonly string[]): boolean {
  if (!p.literalDot && !anyDot(values)) return false;
  return path.includes("/.") && DOT_SEGMENT.test(path);
}

function anyDot(values: readonly string[]): boolean {
  for (const v of values) if (v.indexOf(".") !== -1) return true;
  return false;
}

function literalsStable(rewrite: CompiledRewrite): boolean {
  const text = (t: Template): string[] => t.filter((piece): piece is string => typeof piece === "string");
  return (
    text(rewrite.path).every((piece) => STABLE_PATH_TEXT.test(piece)) &&
    rewrite.query.every(
      (q) =>
        STABLE_QUERY_TEXT.test(q.name) &&
        (q.value === null || text(q.value).every((v) => STABLE_QUERY_TEXT.test(v))),
    )
  );
}

// Real links nest a wrapper in itself once or twice; more is a loop or an attack.
const MAX_NESTED_UNWRAP = 4;

const isWebScheme = (url: UrlParts): boolean => url.protocol === "https:" || url.protocol === "http:";

/** What a rule compiles its declaration into, on first use (see `DeclaredRule`). */
interface Compiled {
  readonly patterns: readonly CompiledPattern[];
  readonly fragmentPaths: readonly CompiledPathPattern[] | undefined;
  readonly unwrap: readonly CompiledUnwrap[] | undefined;
  /** Hosts where `canonicalHost`/`canonicalScheme` apply on paths no pattern declares. */
  readonly mirrors: HostSet | undefined;
  /** Whether every host `canonicalHost` can produce is one the WHATWG parser leaves as it is. */
  readonly hostStable: boolean;
  /** A `{domain}` canonical host per host name seen (bounded: wildcard domains have no end). */
  readonly canonicalHosts: Map<string, string>;
}

const MAX_CANONICAL_HOSTS = 256;

function compileDeclaration(declaration: DeclarativeRule, bases: readonly string[]): Compiled {
  const ruleStrip = declaration.stripParams ?? [];
  const patterns = (declaration.pathPatterns ?? []).map((p) => {
    const match = must(compilePathPattern(p.match));
    const rewrite = must(compileRewrite(p.rewrite, match.names));
    const strip = [...ruleStrip, ...(p.stripParams ?? [])];
    return {
      match,
      lead: match.prefix.length > 1 ? match.prefix.charCodeAt(1) : -1,
      rewrite,
      setNames: rewrite.query.map((q) => q.name),
      stable: literalsStable(rewrite),
      literalDot: rewrite.path.some((piece) => typeof piece === "string" && piece.includes(".")),
      hosts: p.hosts === undefined ? undefined : createHostSet(p.hosts),
      keep: p.keepParams === undefined ? undefined : new Set(p.keepParams),
      strip: strip.length === 0 ? undefined : Object.freeze(strip),
    };
  });
  // Validation admits lowercase host names only; checked here all the same, since skipping the
  // parse of a rewrite is only sound for a host the parser would not change.
  const canonical = declaration.canonicalHost;
  const hostStable =
    canonical === undefined ||
    (canonical.includes("{domain}") ? bases.map((b) => canonical.replace("{domain}", b)) : [canonical]).every(
      (h) => URL.parse(`http://${h}/`)?.hostname === h,
    );
  const fragment = declaration.keepFragment;
  const fragmentPaths =
    declaration.stripFragment === false || fragment === undefined || typeof fragment === "string"
      ? undefined
      : fragment.paths?.map((p) => must(compilePathPattern(p)));
  const unwrap = declaration.unwrap?.map((u) => {
    const path = must(compilePathPattern(u.path));
    return {
      path,
      param: u.param,
      target: u.target === undefined ? undefined : must(compileTemplate(u.target, path.names)),
      keepQuery: u.keepQuery === true,
      sameHost: u.sameHost === true,
      decode: u.decode,
    };
  });
  const mirrorHosts = declaration.mirrorHosts;
  const mirrors =
    mirrorHosts === undefined
      ? undefined
      : createHostSet(mirrorHosts === true ? declaration.domains : mirrorHosts);
  return { patterns, fragmentPaths, unwrap, mirrors, hostStable, canonicalHosts: new Map() };
}

/**
 * A domain rule compiled from a validated {@link DeclarativeRule}: what `loadRules` returns and
 * what the built-in rules are. `createRuleMatcher` recognizes these and indexes them by host.
 *
 * `apply` is total: a URL the rule does not claim comes back unchanged. It leaves `stripParams` to
 * the pipeline's final pass (so the caller's `keepParams` can still save one) but applies the
 * `keepParams` allowlist itself.
 *
 * @example
 * ```ts
 * const [rule] = loadRules('[{ "name": "x-v1", "domains": ["twitter.com", "x.com"], "canonicalHost": "x.com" }]');
 * rule.apply(new URL("https://twitter.com/jack")).href; // "https://x.com/jack"
 * ```
 */
export class DeclaredRule implements DomainRule {
  readonly name: string;
  /** The frozen declaration the rule was compiled from. */
  readonly declaration: DeclarativeRule;
  /** The hosts the rule claims (its `domains`). */
  readonly hosts: HostSet;
  readonly stripParams?: readonly string[];
  /** Parameters the tracking passes leave alone on {@link hosts} (see `DeclarativeRule.exemptParams`). */
  readonly exemptParams?: readonly string[];
  /**
   * True for a rule that carries only `name`, `domains` and `exemptParams`: it never matches, so it
   * never takes a URL away from a later rule; the pipeline reads its exemptions apart.
   */
  readonly exemptOnly: boolean;
  /**
   * Fragments (without `#`) this rule may keep. The pipeline leaves the hash on the URL it hands
   * to `apply` when this matches; `apply` then decides by path (GitHub keeps `#L10` only on file
   * links). Absent when the rule strips every fragment.
   */
  readonly keepFragment?: RegExp;
  /** Reads only the {@link UrlParts} fields, so the pipeline may pass a plain record. */
  readonly match: (url: UrlParts) => boolean;
  /** Reads only the {@link UrlParts} fields; a URL it does not claim comes back as it was. */
  readonly apply: <T extends UrlParts>(url: T) => T | URL | string;

  readonly #keep: ReadonlySet<string> | undefined;
  /**
   * The rule declares its paths (`pathPatterns`): its allowlist, `stripParams` and rewrites apply
   * on those paths only; on any other path of its hosts only the tracking passes run (and, on its
   * `mirrorHosts`, the host and scheme move). A rule without patterns applies on every path.
   */
  readonly #scoped: boolean;
  /** `canonicalHost` holds a placeholder: its hosts are not all in {@link hosts} by construction. */
  readonly #templatedHost: boolean;
  /**
   * `canonicalScheme://canonicalHost` where both are fixed (most built-in rules): the text lane's
   * prefix is then this and the path, one concatenation instead of four strings per link.
   */
  readonly #fixedOrigin: string | undefined;
  /**
   * The last claim decided (the pipeline asks match, then applyParts, on one parts record): its
   * scheme, host and path, and the answer. Comparing the same strings again is a pointer compare.
   */
  #claimProtocol = "";
  #claimHost = "";
  #claimPath = "";
  #claimAnswer = false;
  /**
   * An unwrap rule's last target, kept from match until applyParts takes it: the target's parse
   * and the decode ran once per link instead of twice, and the pipeline uses the parsed target
   * itself (before: three parses of every unwrapped target, with checkOutput's). Keyed by the
   * scheme, host, path and query it was read from.
   */
  #unwrapKey: readonly [string, string, string, string] | undefined;
  #unwrapTargetUrl: URL | undefined;
  /** The last pattern lookup (the pipeline asks match, then stripParamsFor, then apply, on one path). */
  #lastHost = "";
  #lastPath: string | undefined;
  #lastPattern: CompiledPattern | undefined;
  #lastValues: string[] | undefined;
  /** `domains` without `*.`, shortest first: the candidates for `{domain}` in `canonicalHost`. */
  readonly #bases: readonly string[];
  /** The patterns, templates and checks `apply` runs, built on the first URL the rule claims. */
  #compiled: Compiled | undefined;

  constructor(declaration: DeclarativeRule) {
    this.declaration = declaration;
    this.name = declaration.name;
    // A literal canonical host is claimed even when `domains` does not list it: users expect
    // `canonicalHost: www.tube.example` to be the rule's own, and the rule must claim its output.
    const canonicalHost = declaration.canonicalHost;
    this.hosts = createHostSet(
      canonicalHost === undefined ||
        canonicalHost.includes("{") ||
        createHostSet(declaration.domains).has(canonicalHost)
        ? declaration.domains
        : [...declaration.domains, canonicalHost],
    );
    if (declaration.exemptParams !== undefined && declaration.exemptParams.length > 0)
      this.exemptParams = declaration.exemptParams;
    // Only with exemptParams: a rule of bare name and domains still claims its hosts (it names
    // them in ruleApplied and gives them the generic pass alone).
    this.exemptOnly =
      this.exemptParams !== undefined &&
      Object.keys(declaration).every((k) => k === "name" || k === "domains" || k === "exemptParams");
    this.#bases = declaration.domains
      .map((d) => (d.startsWith("*.") ? d.slice(2) : d))
      .sort((a, b) => a.length - b.length);
    if (declaration.stripParams !== undefined && declaration.stripParams.length > 0)
      this.stripParams = declaration.stripParams;
    const keep = declaration.keepParams ?? [];
    this.#keep = keep.length > 0 ? new Set(keep) : undefined;
    this.#scoped = declaration.pathPatterns !== undefined && declaration.pathPatterns.length > 0;
    this.#templatedHost = canonicalHost?.includes("{") === true;
    const scheme = declaration.canonicalScheme;
    this.#fixedOrigin =
      scheme !== undefined && canonicalHost !== undefined && !this.#templatedHost
        ? `${scheme}://${canonicalHost}`
        : undefined;
    const fragment = declaration.keepFragment;
    if (declaration.stripFragment === false) this.keepFragment = /(?:)/;
    else if (fragment !== undefined)
      this.keepFragment = new RegExp(
        `^(?:${typeof fragment === "string" ? fragment : fragment.pattern})$`,
        "u",
      );

    if (this.exemptOnly) {
      this.match = () => false;
      this.apply = (url) => url;
    } else if (declaration.unwrap !== undefined) {
      // An unwrap rule claims a link only when it really carries an http(s) target, so that
      // google.com/search falls through to later rules and `ruleApplied` never names a no-op.
      this.match = (url) => this.#claims(url) && this.#rememberedTarget(url) !== undefined;
      this.apply = (url) => (this.#claims(url) ? (this.#unwrapNested(url) ?? url) : url);
    } else {
      this.match = (url) => this.#claimsPath(url);
      this.apply = (url) => (this.#claimsPath(url) ? new URL(this.#rewrite(url).href) : url);
    }
    Object.freeze(this);
  }

  // Compiling on first use, not in the constructor: the built-in rules are constructed when
  // canonurl/core is imported, and most programs only ever reach a few of them (the build checks the
  // built-in declarations with the validator; user rules are validated by compileRules before they
  // get here, so nothing below fails for a rule that exists).
  get #c(): Compiled {
    this.#compiled ??= compileDeclaration(this.declaration, this.#bases);
    return this.#compiled;
  }

  #claims(url: UrlParts): boolean {
    return isWebScheme(url) && this.hosts.has(url.hostname);
  }

  /**
   * Whether the rule's output (or any URL) is on the rule's own hosts: the pipeline then runs its
   * final pass on it rather than taking it for an unwrapped link (a path rewrite's output need not
   * be a path the rule declares).
   *
   * @example
   * ```ts
   * rule.ownsHost(new URL("https://www.youtube.com/feed")); // true for youtube-v3
   * ```
   */
  ownsHost(url: UrlParts): boolean {
    return this.#claims(url);
  }

  // The first pattern that applies to the path on this host, or undefined.
  #patternFor(host: string, path: string): CompiledPattern | undefined {
    if (path === this.#lastPath && host === this.#lastHost) return this.#lastPattern;
    return this.#findPattern(host, path);
  }

  // #patternFor without its memo: the rule text lane asks once per link, with a path of its own
  // (the compare with the last link's path of the same length was a character compare).
  #findPattern(host: string, path: string): CompiledPattern | undefined {
    let found: CompiledPattern | undefined;
    let values: string[] | undefined;
    // A pattern of k segments matches a path of k slashes (k + 1 with a trailing one), one with a
    // rest capture a path of k or more: counted once, it rules out most patterns that share a
    // prefix with the path (Reddit's eight, GitHub's four) before their segments are matched.
    let slashes = 0;
    for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) slashes++;
    const trailing = path.length > 1 && path.charCodeAt(path.length - 1) === 0x2f;
    // The first character of the path's first segment rules out most patterns with a literal start
    // (YouTube's /watch, /playlist, /embed/…) before a call: ~10% of the rewrite's time on golden
    // rule links went to matchPathPattern calls that failed on the prefix.
    const lead = path.charCodeAt(1);
    for (const p of this.#c.patterns) {
      if ((p.lead !== -1 && p.lead !== lead) || !slashesFit(p.match, slashes, trailing)) continue;
      if (p.hosts !== undefined && !p.hosts.has(host)) continue;
      values = matchPathPattern(p.match, path, slashes);
      if (values !== undefined) {
        found = p;
        break;
      }
    }
    this.#lastHost = host;
    this.#lastPath = path;
    this.#lastPattern = found;
    this.#lastValues = values;
    return found;
  }

  // A scoped rule claims a path it declares, and every path of a mirror host (moving only the
  // host and scheme on the others); a rule without patterns claims every path of its hosts.
  #claimsPath(url: UrlParts, hostKnown = false): boolean {
    const { protocol, hostname, pathname } = url;
    if (protocol === this.#claimProtocol && hostname === this.#claimHost && pathname === this.#claimPath)
      return this.#claimAnswer;
    const answer = this.#decideClaim(url, hostKnown);
    this.#claimProtocol = protocol;
    this.#claimHost = hostname;
    this.#claimPath = pathname;
    this.#claimAnswer = answer;
    return answer;
  }

  #decideClaim(url: UrlParts, hostKnown: boolean): boolean {
    if (hostKnown ? !isWebScheme(url) : !this.#claims(url)) return false;
    return this.#claimsOn(url.hostname, url.pathname);
  }

  // The claim on one of the rule's hosts, for an http(s) link.
  #claimsOn(host: string, path: string): boolean {
    if (!this.#scoped || this.#c.mirrors?.has(host) === true) return true;
    return this.#patternFor(host, path) !== undefined || this.#keepsFragmentOn(path);
  }

  // A path where the rule keeps a fragment, which it understands too (GitHub's file links): a
  // scoped rule claims it even where no pattern declares it.
  #keepsFragmentOn(path: string): boolean {
    const fragmentPaths = this.#c.fragmentPaths;
    if (fragmentPaths !== undefined)
      for (const p of fragmentPaths) if (matchPathPattern(p, path) !== undefined) return true;
    return false;
  }

  /**
   * The parameters the pipeline's final pass strips for this input (before the rewrite): the
   * rule's `stripParams` and those of the pattern that applies, or none on a path the rule does
   * not declare.
   *
   * @example
   * ```ts
   * rule.stripParamsFor(new URL("https://www.youtube.com/watch?v=x&t=1")); // ["t", "start", …]
   * ```
   */
  stripParamsFor(url: UrlParts): readonly string[] | undefined {
    if (!this.#scoped) return this.stripParams;
    return this.#patternFor(url.hostname, url.pathname)?.strip;
  }

  #canonicalHostOf(host: string): string {
    const canonicalHost = this.declaration.canonicalHost;
    if (canonicalHost === undefined || !canonicalHost.includes("{domain}")) return canonicalHost ?? host;
    // Remembered per host: #baseOf tries every domain of the rule (Amazon's 46) on each link.
    const memo = this.#c.canonicalHosts;
    let out = memo.get(host);
    if (out === undefined) {
      out = canonicalHost.replace("{domain}", this.#baseOf(host));
      // A name longer than DNS allows is not kept, and a kept one is a copy: a host sliced off a
      // long link (a wildcard domain of a user's rule) would keep the link alive.
      if (host.length <= 253) {
        if (memo.size >= MAX_CANONICAL_HOSTS) memo.clear();
        memo.set(ownCopy(host), out);
      }
    }
    return out;
  }

  // A wrapper inside a wrapper of the same kind (google.com/url?q=google.com/url?q=…) is peeled here,
  // bounded: the pipeline starts over only on output its rule no longer claims.
  #unwrapNested(url: UrlParts): string | undefined {
    let target = this.#unwrapTarget(url);
    for (let depth = 0; target !== undefined && depth < MAX_NESTED_UNWRAP; depth++) {
      if (!this.#claims(target)) break;
      const next = this.#unwrapTarget(target);
      if (next === undefined) break;
      target = next;
    }
    return target?.href;
  }

  // Whether the memo holds the target for these parts (match found it: the parts are claimed).
  #remembers(url: UrlParts): boolean {
    const key = this.#unwrapKey;
    return (
      key !== undefined &&
      key[0] === url.protocol &&
      key[1] === url.hostname &&
      key[2] === url.pathname &&
      key[3] === url.search
    );
  }

  // The target for these parts, from the memo when match asked for the same parts last.
  #rememberedTarget(url: UrlParts): URL | undefined {
    if (this.#remembers(url)) return this.#unwrapTargetUrl;
    const target = this.#unwrapTarget(url);
    // Only a target is kept for applyParts: a link that carries none (most links on a host with a
    // wrapper path) is not asked again, and its key would be an array per rule per link.
    if (target !== undefined) {
      this.#unwrapKey = [url.protocol, url.hostname, url.pathname, url.search];
      this.#unwrapTargetUrl = target;
    }
    return target;
  }

  #unwrapTarget(url: UrlParts): URL | undefined {
    for (const form of this.#c.unwrap ?? []) {
      const values = matchPathPattern(form.path, url.pathname);
      if (values === undefined) continue;
      let raw: string | undefined;
      if (form.param !== undefined) {
        const search = url.search;
        if (search.length > 1) {
          const value = firstValue(search, form.param);
          if (value !== undefined) raw = formDecode(value);
        }
      } else if (form.target !== undefined) {
        raw = fillTemplate(form.target, values);
        if (form.keepQuery && url.search.length > 1)
          raw += (raw.includes("?") ? "&" : "?") + url.search.slice(1);
      }
      if (raw !== undefined && form.decode !== undefined) raw = decodeWrappedTarget(form.decode, raw);
      if (raw === undefined || raw === "") continue;
      let target: URL;
      try {
        // Only a path ("/watch?v=…") is read on the wrapper's host, never "//other.example/…".
        target =
          form.sameHost &&
          raw.charCodeAt(0) === 0x2f &&
          raw.charCodeAt(1) !== 0x2f &&
          raw.charCodeAt(1) !== 0x5c
            ? new URL(raw, `${url.protocol}//${url.hostname}`)
            : new URL(raw);
      } catch {
        continue;
      }
      // Only a web link is a target; javascript:, data: or a relative path leave the wrapper alone.
      if (isWebScheme(target) && target.hostname !== "") return target;
    }
    return undefined;
  }

  [matchOnHost](url: UrlParts): boolean {
    if (this.exemptOnly) return false;
    if (this.declaration.unwrap !== undefined)
      return isWebScheme(url) && this.#rememberedTarget(url) !== undefined;
    return this.#claimsPath(url, true);
  }

  // #rewrite's decisions on a path and host alone (no port, userinfo or fragment: the lane has
  // none), refusing where #rewrite would hand the pipeline a URL to parse (not stable) or the
  // pipeline would start over (a host off the rule's own). The query is the lane's.
  [rewriteText](host: string, path: string, protocol: string): TextRewrite | false | undefined {
    if (this.declaration.unwrap !== undefined) {
      // A link on an unwrap form's path may carry a target: the whole pipeline decides.
      for (const form of this.#c.unwrap ?? []) if (matchPathPattern(form.path, path) !== undefined) return;
      return false;
    }
    if (this.exemptOnly) return false;
    // #claimsOn, with the pattern found once for the claim and the rewrite.
    const p = this.#scoped ? this.#findPattern(host, path) : undefined;
    if (
      this.#scoped &&
      p === undefined &&
      this.#c.mirrors?.has(host) !== true &&
      !this.#keepsFragmentOn(path)
    )
      return false;
    let keep = this.#scoped ? undefined : this.#keep;
    let set: QueryParam[] | undefined;
    if (p !== undefined) {
      const values = this.#lastValues as string[];
      keep = p.keep ?? this.#keep;
      path = fillTemplate(p.rewrite.path, values);
      if (!p.stable || dotSegmentIn(p, path, values)) return;
      if (p.rewrite.query.length > 0) {
        for (const v of values) if (v.includes("'")) return;
        set = rewriteQueryParams(p.rewrite, values);
      }
    }
    const hostname = this.#canonicalHostOf(host);
    // The output must be on the rule's own hosts. A literal canonical host is one by construction
    // (the constructor adds it to `hosts`), so only a templated one is looked up: the probe and
    // the compare of two equal host names cost ~45 ns a rule link on golden links.
    if (!this.#c.hostStable || (this.#templatedHost && hostname !== host && !this.hosts.has(hostname)))
      return;
    const scheme = this.declaration.canonicalScheme;
    const origin = this.#fixedOrigin ?? `${scheme === undefined ? protocol : `${scheme}:`}//${hostname}`;
    return {
      prefix: origin + path,
      hostname,
      set,
      setNames: set === undefined ? undefined : p?.setNames,
      keep,
      strip: this.#scoped ? p?.strip : this.stripParams,
      path,
    };
  }

  // #unwrapTarget's reading on a text the generic pass leaves as it is, bar what it cannot read
  // there (see unwrapText): the pipeline then parses the target as this text.
  [unwrapText](
    host: string,
    path: string,
    protocol: string,
    input: string,
    queryFrom: number,
    queryEnd: number,
    dropped: ((name: string) => boolean) | undefined,
  ): string | false | undefined {
    const forms = this.#c.unwrap;
    if (forms === undefined || this.exemptOnly) return false;
    for (const form of forms) {
      const values = matchPathPattern(form.path, path);
      if (values === undefined) continue;
      let raw: string | undefined;
      if (form.param !== undefined) {
        // A tracking-named parameter is gone before the rule reads the query.
        if (queryEnd <= queryFrom || dropped?.(form.param) === true) continue;
        const value = soleValue(input, queryFrom, queryEnd, form.param);
        if (value === REPEATED) return undefined;
        if (value !== undefined) raw = formDecode(value);
      } else if (form.target !== undefined) {
        // The pipeline appends the generic pass's query, filtered and sorted: not read here.
        if (form.keepQuery && queryEnd > queryFrom) return undefined;
        raw = fillTemplate(form.target, values);
      }
      if (raw !== undefined && form.decode !== undefined) raw = decodeWrappedTarget(form.decode, raw);
      if (raw === undefined || raw === "") continue;
      // A path on the wrapper's host, read as #unwrapTarget reads it: the parse of the host's
      // origin and the path-absolute text is the parse of the text put after the origin, bar a
      // tab or newline, which the parser removes first ("/\t/other.example" is "//other.example";
      // the text lanes refuse the composed text for its tab too, but the host is decided here).
      if (
        form.sameHost &&
        raw.charCodeAt(0) === 0x2f &&
        raw.charCodeAt(1) !== 0x2f &&
        raw.charCodeAt(1) !== 0x5c
      )
        return TAB_OR_NEWLINE.test(raw) ? undefined : `${protocol}//${host}${raw}`;
      return raw;
    }
    return false;
  }

  [keepsFragmentText](fragment: string, path: string): boolean {
    return this.#keepsFragmentOf(fragment, path);
  }

  [applyParts]<T extends UrlParts>(parts: T, params?: readonly QueryParam[]): T | RewrittenParts | URL {
    // One wrapper at a time: the pipeline peels the next in a new round and counts the rounds.
    // The target is handed over once: the memo forgets it, so no two callers share one URL.
    if (this.declaration.unwrap !== undefined) {
      // A remembered target was found by match, on parts the rule claims.
      if (!this.#remembers(parts) && !this.#claims(parts)) return parts;
      const target = this.#rememberedTarget(parts);
      this.#unwrapKey = undefined;
      this.#unwrapTargetUrl = undefined;
      return target ?? parts;
    }
    if (!this.#claimsPath(parts)) return parts;
    const out = this.#rewrite(parts, params);
    return this.#c.hostStable && out.stable ? out : new URL(out.href);
  }

  // Builds the rewritten URL as one string (and its parts) rather than through URL setters: each
  // setter re-parses the whole URL, and a rewrite touched up to five of them (npm run bench:
  // identity went from 4.80x to 5.07x faster than normalize-url@9 with this change).
  //
  // `stable` says whether parsing `href` would give these parts back, given parts that are already
  // parser-stable (the generic pass's are: tests/properties/generic-parts.property.test.ts). Then
  // every capture is a stretch of a stable path: RFC 3986 path characters and uppercase escapes of
  // reserved bytes, nothing the parser encodes in a path. Put back into a path, with literal text
  // that is stable too, only a dot segment could change ("/item/{id}.html" captures "." from
  // "/item/..html"); put into a query value, only "'" could (the special-query set encodes it;
  // & = + are escaped by the rewrite). Kept pairs and the fragment are the input's, stable already.
  //
  // `params`, when given, are the pairs of `url.search` (the generic pass's): the allowlist and the
  // set parameters then work on them, and the output carries its pairs to the final pass, which
  // splitting the query twice more (here, then there) cost (see bench/README.md, "rule links").
  #rewrite(url: UrlParts, params?: readonly QueryParam[]): RewrittenParts & { stable: boolean } {
    const host = url.hostname;
    let path = url.pathname;
    let setPairs: QueryParam[] | undefined;
    let setNames: readonly string[] | undefined;
    let stable = true;
    // On a path a scoped rule does not declare, its allowlist does not apply either.
    let keep = this.#scoped ? undefined : this.#keep;
    const p = this.#patternFor(host, path);
    if (p !== undefined) {
      const values = this.#lastValues as string[];
      keep = this.#keep;
      path = fillTemplate(p.rewrite.path, values);
      if (p.keep !== undefined) keep = p.keep;
      stable = p.stable && !dotSegmentIn(p, path, values);
      if (p.rewrite.query.length > 0) {
        setPairs = rewriteQueryParams(p.rewrite, values);
        if (stable) for (const v of values) if (v.includes("'")) stable = false;
        setNames = p.setNames;
      }
    }

    let search = url.search;
    let outParams = params;
    if (setPairs !== undefined || (keep !== undefined && search.length > 1)) {
      // Pairs as written, never decoded and re-encoded, so kept parameters keep the generic pass's
      // encoding.
      const pairs = setPairs ?? [];
      // A query not handed over as pairs is split here and always written again: the same text,
      // less its empty segments.
      let changed = setPairs !== undefined || params === undefined;
      for (const pair of params ?? splitQuery(search.slice(1)))
        if (setNames?.includes(pair.name) || (keep !== undefined && !keep.has(pair.name))) changed = true;
        else pairs.push(pair);
      if (changed) {
        search = pairs.length > 0 ? `?${joinQuery(pairs)}` : "";
        outParams = pairs;
      }
    }

    const hash = url.hash !== "" && this.#keepsFragment(url.hash, path) ? url.hash : "";

    const canonicalHost = this.declaration.canonicalHost;
    const scheme = this.declaration.canonicalScheme;
    const newHost = this.#canonicalHostOf(host);
    const protocol = scheme === undefined ? url.protocol : `${scheme}:`;
    // A rule that moves the host or the scheme also drops the port, as the setters did.
    const port =
      canonicalHost !== undefined || protocol !== url.protocol || url.port === "" ? "" : `:${url.port}`;
    const userinfo = userinfoOf(url.username, url.password);
    const hostAndPort = `${newHost}${port}`;
    return {
      href: `${protocol}//${userinfo}${hostAndPort}${path}${search}${hash}`,
      protocol,
      username: url.username,
      password: url.password,
      hostname: newHost,
      host: hostAndPort,
      port: port === "" ? "" : port.slice(1),
      pathname: path,
      search,
      hash,
      params: outParams,
      handed: params !== undefined && setPairs === undefined,
      stable,
    };
  }

  // The shortest of the rule's domains that is the host or a parent of it: "www.amazon.com.be" →
  // "amazon.com.be". Taken from the rule's own data rather than the Public Suffix List, which does
  // not know every store's second-level name (com.be is not a public suffix).
  #baseOf(host: string): string {
    for (const base of this.#bases)
      if (host === base || (host.endsWith(base) && host.charCodeAt(host.length - base.length - 1) === 46))
        return base;
    return host;
  }

  #keepsFragment(hash: string, pathname: string): boolean {
    return this.#keepsFragmentOf(hash.slice(1), pathname);
  }

  #keepsFragmentOf(fragment: string, pathname: string): boolean {
    const keep = this.keepFragment;
    if (keep === undefined || !keep.test(fragment)) return false;
    const paths = this.#c.fragmentPaths;
    if (paths === undefined) return true;
    for (const p of paths) if (matchPathPattern(p, pathname) !== undefined) return true;
    return false;
  }
}
