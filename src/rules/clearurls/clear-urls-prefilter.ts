import type { ClearUrlsProvider } from "./clear-urls-provider.js";

// Nearly every ClearURLs urlPattern reads `^https?:\/\/(?:[a-z0-9-]+\.)*?NAME…`: the optional
// group eats whole labels, so NAME starts at a label of the authority. The index keys each such
// provider by NAME's first label — exactly, when NAME goes on past a dot (`msn\.com`), or as a
// label prefix when it stops first (`amazon(?:\.[a-z]{2,})`, `x.com` with its unescaped dot). A
// group of plain alternatives (`(youtube\.com|youtu\.be)`) gives one key each. Anything else
// (`.*`, unanchored patterns, optional labels) is tested on every URL. On the 2025-07-27 snapshot
// 199 of 205 providers are keyed and 6 are tested always (globalRules, yandex, shutterstock,
// mozaws.net, accounts.firefox.com, support.mozilla.org).
const HEAD = /^\^https\?:(?:\\\/|\/)(?:\\\/|\/)(?:\(\?:\[a-z0-9-\]\+\\\.\)\*\?)?/;
const LITERAL = /^(?:[a-z0-9-]|\\\.|\\-)+/i;
const GROUP = /^\((?:\?:)?((?:(?:[a-z0-9-]|\\\.|\\-)+\|)+(?:[a-z0-9-]|\\\.|\\-)+)\)/i;

interface Key {
  label: string;
  exact: boolean;
}

function keyOf(literal: string): Key {
  const text = literal.replace(/\\(.)/g, "$1").toLowerCase();
  const dot = text.indexOf(".");
  return dot !== -1 && literal.includes("\\.")
    ? { label: text.slice(0, dot), exact: true }
    : { label: text, exact: false };
}

// A `|` outside every group makes the whole pattern an alternation: its head proves nothing.
export function hasTopLevelBar(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}

const QUANTIFIER = /^[?*{]/;

/**
 * The host keys of a urlPattern, or `undefined` when it cannot be keyed (tested on every URL).
 *
 * @example
 * ```ts
 * patternKeys("^https?:\\/\\/(?:[a-z0-9-]+\\.)*?msn\\.com"); // [{ label: "msn", exact: true }]
 * ```
 */
export function patternKeys(source: string): readonly Key[] | undefined {
  const head = HEAD.exec(source);
  if (head === null || hasTopLevelBar(source)) return undefined;
  const rest = source.slice(head[0].length);
  const group = GROUP.exec(rest);
  if (group !== null) {
    if (QUANTIFIER.test(rest.slice(group[0].length))) return undefined;
    return (group[1] as string).split("|").map(keyOf);
  }
  const literal = LITERAL.exec(rest);
  if (literal === null) return undefined;
  let text = literal[0];
  // `abc?`: the last unit is optional, so only what precedes it is required.
  if (QUANTIFIER.test(rest.slice(text.length)))
    text = text.endsWith("\\.") || text.endsWith("\\-") ? text.slice(0, -2) : text.slice(0, -1);
  if (text === "" || text.endsWith("\\")) return undefined;
  return [keyOf(text)];
}

// Adds `more` to `list` (created on first use), without duplicates: candidate lists are short.
function add(list: number[] | undefined, more: readonly number[]): number[] {
  const out = list ?? [];
  for (const i of more) if (!out.includes(i)) out.push(i);
  return out;
}

/** The candidates lookup: which providers can match a URL, in data order. */
export interface ClearUrlsPrefilter {
  /** Provider indexes whose urlPattern may match `href`, ascending; a superset of the true set. Read-only (it may be shared). */
  candidates(href: string): readonly number[];
  /** How many providers are keyed by host and how many are tested on every URL. */
  readonly keyed: number;
  readonly always: readonly number[];
}

function isAuthorityChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2d ||
    c === 0x2e
  );
}

/**
 * Builds the host index over `providers`. Per URL it reads the run of host characters after
 * `://` (where a keyed pattern's name must sit), looks each label up exactly and compares it
 * with the prefix keys that share its first character: O(labels × such keys), never a regex.
 *
 * @example
 * ```ts
 * createPrefilter(providers).candidates("https://www.amazon.de/dp/1"); // [0, 2, 8, …]
 * ```
 */
export function createPrefilter(providers: readonly ClearUrlsProvider[]): ClearUrlsPrefilter {
  const exact = new Map<string, number[]>();
  const prefix = new Map<string, number[]>();
  const always: number[] = [];
  let keyed = 0;
  providers.forEach((provider, position) => {
    const keys = patternKeys(provider.source);
    if (keys === undefined) {
      always.push(position);
      return;
    }
    keyed++;
    for (const key of keys) {
      const map = key.exact ? exact : prefix;
      const list = map.get(key.label);
      if (list === undefined) map.set(key.label, [position]);
      else if (!list.includes(position)) list.push(position);
    }
  });
  // Prefix keys by their first character: a label is compared with the few that start like it,
  // in place, instead of a slice and a Map lookup per key length.
  const byFirst = new Map<number, { key: string; list: number[] }[]>();
  for (const [key, list] of prefix) {
    const first = key.charCodeAt(0);
    const entries = byFirst.get(first);
    if (entries === undefined) byFirst.set(first, [{ key, list }]);
    else entries.push({ key, list });
  }
  // Shortest first: a label stops at the first key longer than itself.
  for (const entries of byFirst.values()) entries.sort((a, b) => a.key.length - b.key.length);
  const alwaysList = Object.freeze([...always]) as number[];
  return {
    keyed,
    always: Object.freeze([...always]),
    candidates(href) {
      // Most URLs hit no key: they get the shared `always` list, with nothing allocated.
      let hits: number[] | undefined;
      const scheme = href.indexOf("://");
      if (scheme !== -1) {
        let end = scheme + 3;
        while (end < href.length && isAuthorityChar(href.charCodeAt(end))) end++;
        const run = href.slice(scheme + 3, end).toLowerCase();
        for (let start = 0; start <= run.length; ) {
          let dot = run.indexOf(".", start);
          if (dot === -1) dot = run.length;
          const label = run.slice(start, dot);
          const hit = exact.get(label);
          if (hit !== undefined) hits = add(hits, hit);
          const entries = label === "" ? undefined : byFirst.get(label.charCodeAt(0));
          if (entries !== undefined)
            for (const { key, list } of entries) {
              if (key.length > label.length) break;
              if (label.startsWith(key)) hits = add(hits, list);
            }
          start = dot + 1;
        }
      }
      if (hits === undefined) return alwaysList;
      return add(hits, always).sort((a, b) => a - b);
    },
  };
}
