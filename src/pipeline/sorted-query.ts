import { mayBeTracking, type TrackingMatcher } from "./tracking-matcher.js";

/**
 * The query href[from, end) as the generic pass writes it, read in place: split at "&" with empty
 * segments dropped (splitQuery), the pairs `isTracking` names removed (their names pushed onto
 * `stripped` in input order, as removeMatching pushes them), the rest in sortQueryParams' order
 * (by name, a bare name before any value, then by value, in code units) joined with "&". For the
 * short queries keptQuery leaves to the generic pass (pairs out of order, an empty segment): no
 * pair objects, no copies of the names and values, and no comparator calls. `undefined` for a
 * query of more than MAX_SORTED_PAIRS kept pairs or MAX_SORTED_QUERY characters (then the generic
 * pass's own steps run: the insertion sort here compares on the text, which a query of many long,
 * alike names would make quadratic in its length); names may have been pushed onto `stripped` by
 * then, which the caller takes back.
 *
 * Measured on the links whose query keptQuery leaves to the generic pass (101 of the golden
 * corpus's 852 links, 630 of the seeded corpus's 3,000): see bench/README.md, "the sixth pass".
 *
 * @example
 * ```ts
 * const href = "https://a.test/?b=2&utm_source=x&a=1";
 * sortedQuery(href, 16, href.length, createTrackingMatcher(["utm_*"], []), []); // "a=1&b=2"
 * ```
 */
export function sortedQuery(
  href: string,
  from: number,
  end: number,
  isTracking: TrackingMatcher | undefined,
  stripped: string[] | undefined,
): string | undefined {
  if (end - from > MAX_SORTED_QUERY) return undefined;
  const table = isTracking?.pairs;
  let n = 0;
  let nextEq = -2;
  for (let start = from; start <= end; ) {
    let pairEnd = href.indexOf("&", start);
    if (pairEnd === -1 || pairEnd > end) pairEnd = end;
    if (pairEnd > start) {
      // The next "=" is searched for again only once passed, as splitQuery does.
      if (nextEq !== -1 && nextEq < start) nextEq = href.indexOf("=", start);
      const nameEnd = nextEq === -1 || nextEq > pairEnd ? pairEnd : nextEq;
      let dropped = false;
      if (isTracking !== undefined && (table === undefined || mayBeTracking(table, href, start, nameEnd))) {
        const name = href.slice(start, nameEnd);
        dropped = isTracking(name);
        if (dropped) stripped?.push(name);
      }
      if (!dropped) {
        if (n === MAX_SORTED_PAIRS) return undefined;
        // Insertion by the pair's place (pairs that compare equal are the same text).
        let j = n;
        while (
          j > 0 &&
          comparePairs(
            href,
            starts[j - 1] as number,
            names[j - 1] as number,
            ends[j - 1] as number,
            start,
            nameEnd,
            pairEnd,
          ) > 0
        ) {
          starts[j] = starts[j - 1] as number;
          names[j] = names[j - 1] as number;
          ends[j] = ends[j - 1] as number;
          j--;
        }
        starts[j] = start;
        names[j] = nameEnd;
        ends[j] = pairEnd;
        n++;
      }
    }
    start = pairEnd + 1;
  }
  let out = "";
  for (let i = 0; i < n; i++) {
    const pair = href.slice(starts[i] as number, ends[i] as number);
    out = i === 0 ? pair : `${out}&${pair}`;
  }
  return out;
}

/** Past these, sortedQuery leaves the query to the generic pass's split, sort and join. */
export const MAX_SORTED_PAIRS = 16;
export const MAX_SORTED_QUERY = 2048;

// The kept pairs' offsets in sorted order (start, name end, end), reused by every call.
const starts: number[] = [];
const names: number[] = [];
const ends: number[] = [];

/**
 * How the pairs s[a, ae) (name up to `an`) and s[b, be) (name up to `bn`) order under
 * sortQueryParams: negative, zero or positive, by name, then a bare name first, then by value.
 *
 * @example
 * ```ts
 * comparePairs("a=2&a", 0, 1, 3, 4, 5, 5) > 0; // true: the bare "a" sorts first
 * ```
 */
export function comparePairs(
  s: string,
  a: number,
  an: number,
  ae: number,
  b: number,
  bn: number,
  be: number,
): number {
  const byName = compareRange(s, a, an, b, bn);
  if (byName !== 0) return byName;
  const aHas = an < ae;
  const bHas = bn < be;
  if (!aHas || !bHas) return aHas === bHas ? 0 : aHas ? 1 : -1;
  return compareRange(s, an + 1, ae, bn + 1, be);
}

// s[a, ae) against s[b, be) in code units, as JavaScript compares strings.
function compareRange(s: string, a: number, ae: number, b: number, be: number): number {
  const n = Math.min(ae - a, be - b);
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(a + i) - s.charCodeAt(b + i);
    if (d !== 0) return d;
  }
  return ae - a - (be - b);
}
