import { type ClearUrlsProvider, providerMatches } from "./clear-urls-provider.js";

/**
 * What the ClearURLs pass did to one URL.
 *
 * @example
 * ```ts
 * const r: ClearUrlsOutcome = { href: "https://example.com/", acted: 3, kind: "cleaned" };
 * ```
 */
export interface ClearUrlsOutcome {
  /** The URL after the pass: cleaned, the redirection's target, or the input when blocked or untouched. */
  href: string;
  /** Index (in the provider list) of the first provider that acted, -1 when none did. */
  acted: number;
  kind: "untouched" | "cleaned" | "redirected" | "blocked";
}

function decodeName(name: string): string {
  // URLSearchParams reads "+" as a space and decodes escapes; the add-on tests its rules on that.
  const text = name.replaceAll("+", " ");
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// A provider's verdict per raw parameter name (before decoding; decoding is a pure function of
// it): names repeat across URLs, and the joined rules of a provider (48 for globalRules) cost a
// regex run per name otherwise. Bounded: cleared when full, so a stream of distinct names costs
// what it did without the memo, plus a Map insert.
const MAX_NAMES_PER_PROVIDER = 1024;
const verdicts = new WeakMap<RegExp, Map<string, boolean>>();

/**
 * How many names' verdicts are remembered for a provider's joined rules (for tests of the bound).
 *
 * @example
 * ```ts
 * rememberedVerdicts(provider.params); // ≤ 1024
 * ```
 */
export function rememberedVerdicts(params: RegExp): number {
  return verdicts.get(params)?.size ?? 0;
}

function verdictsOf(params: RegExp): Map<string, boolean> {
  let memo = verdicts.get(params);
  if (memo === undefined) {
    memo = new Map();
    verdicts.set(params, memo);
  }
  return memo;
}

// Longer names are tested every time: the memo holds at most 1,024 × this many characters per
// provider, whatever names a stream of hostile URLs brings.
const MAX_REMEMBERED_NAME = 64;

function removesName(params: RegExp, memo: Map<string, boolean>, rawName: string): boolean {
  if (rawName.length > MAX_REMEMBERED_NAME) return params.test(decodeName(rawName));
  let verdict = memo.get(rawName);
  if (verdict === undefined) {
    verdict = params.test(decodeName(rawName));
    if (memo.size >= MAX_NAMES_PER_PROVIDER) memo.clear();
    memo.set(rawName, verdict);
  }
  return verdict;
}

function anyRemoved(params: RegExp, names: readonly string[]): boolean {
  const memo = verdictsOf(params);
  for (const name of names) if (removesName(params, memo, name)) return true;
  return false;
}

/**
 * The raw parameter names removeParams would test in `href` (query, and a fragment holding `=`),
 * or `undefined` when removeParams would change `href` whatever the names (an empty `?` or `#`,
 * an empty `&` piece): then the caller runs removeParams itself.
 */
function fieldNames(href: string): string[] | undefined {
  const names: string[] = [];
  const hashAt = href.indexOf("#");
  const end = hashAt === -1 ? href.length : hashAt;
  const queryAt = href.indexOf("?");
  if (queryAt !== -1 && queryAt < end && !pieceNames(href, queryAt + 1, end, names)) return undefined;
  if (hashAt !== -1) {
    if (hashAt === href.length - 1) return undefined;
    if (href.includes("=", hashAt + 1) && !pieceNames(href, hashAt + 1, href.length, names)) return undefined;
  }
  return names;
}

// The names of the `&`-separated pieces of href[from, to); false on an empty piece (removeParams
// drops it) or an empty list.
function pieceNames(href: string, from: number, to: number, names: string[]): boolean {
  let start = from;
  for (;;) {
    let amp = href.indexOf("&", start);
    if (amp === -1 || amp > to) amp = to;
    if (amp === start) return false;
    // The `=` is looked for inside the piece only: a search past it would make a query of many
    // bare names quadratic.
    let eq = start;
    while (eq < amp && href.charCodeAt(eq) !== 0x3d) eq++;
    names.push(href.slice(start, eq));
    if (amp === to) return true;
    start = amp + 1;
  }
}

function filterParams(list: string, params: RegExp): string {
  const memo = verdictsOf(params);
  const kept: string[] = [];
  for (const piece of list.split("&")) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    if (!removesName(params, memo, eq === -1 ? piece : piece.slice(0, eq))) kept.push(piece);
  }
  return kept.join("&");
}

// The add-on's field removal: query parameters and `#k=v` fragment parameters whose decoded name
// matches a rule are dropped; the others stay byte for byte (the add-on re-serializes them
// through URLSearchParams, which re-encodes; canonurl's final pass normalizes escapes itself).
function removeParams(href: string, params: RegExp): string {
  const hashAt = href.indexOf("#");
  const beforeHash = hashAt === -1 ? href : href.slice(0, hashAt);
  let fragment = hashAt === -1 ? null : href.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf("?");
  const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  let query = queryAt === -1 ? null : beforeHash.slice(queryAt + 1);
  if (query !== null) query = filterParams(query, params);
  if (fragment?.includes("=")) fragment = filterParams(fragment, params);
  let out = base;
  if (query !== null && query !== "") out += `?${query}`;
  if (fragment !== null && fragment !== "") out += `#${fragment}`;
  return out;
}

// canonurl sorts query parameters before any rule runs, but 9 of the snapshot's 64 redirections
// want their target parameter first (`\/away\.php\?to=(…)`, `\/l\.php\?u=(…)`). The canonical
// form does not know the original order, so each parameter is offered first in turn — as many as
// this, which bounds the extra tests on a URL with thousands of parameters.
const MAX_REORDERED_PARAMS = 32;

function findRedirect(provider: ClearUrlsProvider, href: string): string | undefined {
  for (const redirection of provider.redirections) {
    const match = redirection.exec(href);
    if (match?.[1]) return match[1];
  }
  const queryAt = href.indexOf("?");
  if (queryAt === -1) return undefined;
  const hashAt = href.indexOf("#", queryAt);
  const query = hashAt === -1 ? href.slice(queryAt + 1) : href.slice(queryAt + 1, hashAt);
  const params = query.split("&");
  if (params.length < 2) return undefined;
  const base = href.slice(0, queryAt + 1);
  const hash = hashAt === -1 ? "" : href.slice(hashAt);
  for (let i = 1; i < Math.min(params.length, MAX_REORDERED_PARAMS); i++) {
    const variant = `${base}${params[i]}&${[...params.slice(0, i), ...params.slice(i + 1)].join("&")}${hash}`;
    for (const redirection of provider.redirections) {
      const match = redirection.exec(variant);
      if (match?.[1]) return match[1];
    }
  }
  return undefined;
}

function decodeTarget(captured: string): string {
  try {
    return decodeURIComponent(captured);
  } catch {
    return captured;
  }
}

// A redirection's target must be an absolute web link. Some capture one without its scheme
// (Google's `/amp/s/([^&]+)`: "www.bbc.co.uk/news/…", where `/s/` means https); read relative to
// the wrapper it grew by one wrapper per round until the pipeline refused the link (issue 22).
// A host-first target is read as https; anything else is no target and the provider cleans instead.
const HOST_FIRST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:[/?#]|$)/i;
const WEB_SCHEME = /^https?:\/\//i;

function absoluteTarget(target: string): string | undefined {
  if (WEB_SCHEME.test(target)) return target;
  if (HOST_FIRST.test(target)) return `https://${target}`;
  return undefined;
}

/**
 * Runs the ClearURLs add-on's per-request logic over `href`, for the providers at `candidates`
 * (ascending), each tested on the URL as the providers before it left it: a provider whose
 * urlPattern matches and whose exceptions do not acts — a complete provider blocks (the pass
 * stops), a redirection whose group 1 matches unwraps (the pass stops; the target is
 * URL-decoded; any query parameter may stand first, as canonurl's order is not the original), else rawRules are cut from the whole URL and parameters matching its rules are
 * removed. The add-on reaches the same end by re-requesting the cleaned URL; one pass does it here.
 *
 * @example
 * ```ts
 * runClearUrls("https://www.google.com/url?q=https%3A%2F%2Fexample.com%2F", providers, [4]).href;
 * // "https://example.com/"
 * ```
 */
export function runClearUrls(
  href: string,
  providers: readonly ClearUrlsProvider[],
  candidates: readonly number[],
): ClearUrlsOutcome {
  let current = href;
  let acted = -1;
  // The parameter names of `current`, read once and shared by every provider until one changes it.
  let names: string[] | undefined | null = null;
  for (const position of candidates) {
    const provider = providers[position] as ClearUrlsProvider;
    // A provider that only cleans acts when it matches and its cleaning changes the URL. Both are
    // pure, so the cleaning is tried first: most URLs give it nothing to remove, and then the
    // urlPattern and exceptions (48 regexes for globalRules, tried on every URL) never run.
    const cleansOnly = provider.redirections.length === 0 && !provider.complete;
    if (!cleansOnly && !providerMatches(provider, current)) continue;
    const found = provider.redirections.length > 0 ? findRedirect(provider, current) : undefined;
    const target = found === undefined ? undefined : absoluteTarget(decodeTarget(found));
    if (target !== undefined) return { href: target, acted: position, kind: "redirected" };
    if (provider.complete) return { href: current, acted: position, kind: "blocked" };
    let next = current;
    for (const raw of provider.rawRules) next = next.replace(raw, "");
    if (provider.params !== undefined && (next.includes("?") || next.includes("#"))) {
      // Unchanged by the rawRules (the common case), the URL keeps its form when none of its
      // names is removed: then removeParams, which rebuilds it, is skipped.
      if (next === current && names === null) names = fieldNames(current);
      const params = provider.params;
      if (next !== current || names === undefined || names === null || anyRemoved(params, names))
        next = removeParams(next, params);
    }
    if (next !== current && cleansOnly && !providerMatches(provider, current)) continue;
    if (next !== current) {
      if (acted === -1) acted = position;
      current = next;
      names = null;
    }
  }
  return acted === -1 ? { href, acted, kind: "untouched" } : { href: current, acted, kind: "cleaned" };
}
