import { RuleError, type RuleProblem } from "../../errors/rule-error.js";
import { hasTopLevelBar } from "./clear-urls-prefilter.js";

/**
 * One ClearURLs provider, compiled: its regexes built once. ClearURLs regexes are JavaScript
 * regexes matched case-insensitively (the add-on builds them with the `i` flag, `gi` for rawRules).
 *
 * @example
 * ```ts
 * const p = compileProvider("example", { urlPattern: "^https?://example\\.com", rules: ["ref"] }, 0, false);
 * p.params?.test("REF"); // true
 * ```
 */
export interface ClearUrlsProvider {
  readonly name: string;
  /** Position in the data file: providers run in this order. */
  readonly index: number;
  readonly urlPattern: RegExp;
  readonly exceptions: readonly RegExp[];
  /** Capture group 1 of the first that matches is the embedded target URL. */
  readonly redirections: readonly RegExp[];
  /** Removed from the whole URL string (`gi`). */
  readonly rawRules: readonly RegExp[];
  /** `rules` (and `referralMarketing` unless allowed) as one `^(?:a|b|…)$` test on parameter names. */
  readonly params: RegExp | undefined;
  /** `completeProvider`: the add-on blocks every request to it. */
  readonly complete: boolean;
  /** The urlPattern source, for the host prefilter. */
  readonly source: string;
}

const FIELDS = ["rules", "rawRules", "referralMarketing", "exceptions", "redirections"] as const;

function regex(source: unknown, flags: string, path: string, problems: RuleProblem[]): RegExp | undefined {
  if (typeof source !== "string") {
    problems.push({ path, message: `must be a regex string, got ${typeof source}` });
    return undefined;
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    problems.push({ path, message: `does not compile as a JavaScript regex: ${(error as Error).message}` });
    return undefined;
  }
}

/**
 * Compiles one provider of a ClearURLs `data.min.json`. Throws {@link RuleError} listing every
 * problem (the caller records the provider as skipped): a provider with one bad regex is dropped
 * whole, because a broken exception would make it act where its authors said it must not.
 *
 * @example
 * ```ts
 * compileProvider("amazon", data.providers.amazon, 0, false).rawRules.length; // 1
 * ```
 */
export function compileProvider(
  name: string,
  raw: unknown,
  index: number,
  allowReferralMarketing: boolean,
): ClearUrlsProvider {
  const at = `providers[${JSON.stringify(name)}]`;
  const problems: RuleProblem[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new RuleError("invalid-rule", `${at}: a provider must be an object`, {
      problems: [{ path: at, message: "must be an object" }],
    });
  const p = raw as Record<string, unknown>;
  const urlPatternChecked = regex(p.urlPattern, "i", `${at}.urlPattern`, problems);
  const urlPattern =
    urlPatternChecked === undefined
      ? undefined
      : new RegExp(anchorLeadingDotStar(p.urlPattern as string), "i");
  const lists: Record<(typeof FIELDS)[number], string[]> = {
    rules: [],
    rawRules: [],
    referralMarketing: [],
    exceptions: [],
    redirections: [],
  };
  for (const field of FIELDS) {
    const value = p[field];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      problems.push({ path: `${at}.${field}`, message: "must be a list of regex strings" });
      continue;
    }
    value.forEach((source, i) => {
      if (regex(source, "i", `${at}.${field}[${i}]`, problems) !== undefined)
        lists[field].push(source as string);
    });
  }
  if (p.completeProvider !== undefined && typeof p.completeProvider !== "boolean")
    problems.push({ path: `${at}.completeProvider`, message: "must be a boolean" });
  if (problems.length > 0 || urlPattern === undefined)
    throw new RuleError(
      "invalid-rule",
      `${at}: ${problems.map((q) => `${q.path} ${q.message}`).join("; ")}`,
      {
        problems,
      },
    );
  const names = allowReferralMarketing ? lists.rules : [...lists.rules, ...lists.referralMarketing];
  return Object.freeze({
    name,
    index,
    urlPattern,
    exceptions: Object.freeze(lists.exceptions.map((s) => new RegExp(anchorLeadingDotStar(s), "i"))),
    redirections: Object.freeze(lists.redirections.map((s) => new RegExp(anchorLeadingDotStar(s), "i"))),
    rawRules: Object.freeze(lists.rawRules.map((s) => new RegExp(s, "gi"))),
    // One alternation instead of one test per rule: amazon has 36 rules, globalRules 48. Safe to
    // join: no rule in the snapshot uses a backreference, whose numbers a join would shift
    // (checked here, so a replaced data file cannot break it silently).
    params: names.length === 0 ? undefined : joinNames(names),
    complete: p.completeProvider === true,
    source: p.urlPattern as string,
  });
}

/**
 * `.*X` searched unanchored retries at every position when X is absent: quadratic (the
 * snapshot's instagram and rutracker redirections `.*u=([^&]*)` cost 200 ms on one 8 KB URL).
 * On text without line terminators (a serialized URL has none; the pass leaves text with one
 * alone) a match at any position means one at 0, the leftmost, so `^(?:.*X)` finds the same
 * match, captures included, in linear time. A top-level `|` would change meaning: left as is.
 *
 * @example
 * ```ts
 * anchorLeadingDotStar(".*u=([^&]*)"); // "^(?:.*u=([^&]*))"
 * ```
 */
export function anchorLeadingDotStar(source: string): string {
  return source.startsWith(".*") && !hasTopLevelBar(source) ? `^(?:${source})` : source;
}

function joinNames(names: readonly string[]): RegExp {
  if (names.some((n) => /\\[1-9]|\\k</.test(n))) {
    const each = names.map((n) => new RegExp(`^(?:${n})$`, "i"));
    return { test: (s: string) => each.some((r) => r.test(s)) } as RegExp;
  }
  return new RegExp(`^(?:${names.map((n) => `(?:${n})`).join("|")})$`, "i");
}

/**
 * True when the provider acts on `href`: its urlPattern matches and none of its exceptions does.
 *
 * @example
 * ```ts
 * providerMatches(amazon, "https://www.amazon.de/dp/B01"); // true
 * ```
 */
export function providerMatches(provider: ClearUrlsProvider, href: string): boolean {
  if (!provider.urlPattern.test(href)) return false;
  for (const exception of provider.exceptions) if (exception.test(href)) return false;
  return true;
}
