/**
 * The Internet Archive's query order: the `&`-separated arguments sorted by name, then by value,
 * an argument without `=` first among equal names; `=` and empty arguments are kept as written.
 * Strings compare by code unit, which is byte order for the ASCII the key holds.
 *
 * @example
 * ```ts
 * alphaReorderQuery("b=1&a=2&a"); // "a&a=2&b=1"
 * alphaReorderQuery("a=1&");      // "&a=1"
 * ```
 */
export function alphaReorderQuery(query: string): string {
  if (query.length <= 1 || !query.includes("&")) return query;
  if (isSortedInPlace(query)) return query;
  const amp = query.indexOf("&");
  // Two arguments out of order: swapped, without the split and sort.
  if (query.indexOf("&", amp + 1) === -1) return `${query.slice(amp + 1)}&${query.slice(0, amp)}`;
  const args = query.split("&");
  if (args.length > INSERTION_LIMIT) {
    let sorted = true;
    for (let i = 1; i < args.length && sorted; i++)
      sorted = compareArgs(args[i - 1] as string, args[i] as string) <= 0;
    return sorted ? query : args.sort(compareArgs).join("&");
  }
  // A real query has a handful of arguments: an insertion sort in place costs less than the
  // engine's sort with a comparator, and tells on the way whether anything moved. Arguments that
  // compare equal are the same text, so the sort's stability does not show.
  let moved = false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i] as string;
    let j = i - 1;
    if (compareArgs(args[j] as string, arg) <= 0) continue;
    moved = true;
    do {
      args[j + 1] = args[j] as string;
      j--;
    } while (j >= 0 && compareArgs(args[j] as string, arg) > 0);
    args[j + 1] = arg;
  }
  return moved ? args.join("&") : query;
}

// A query already in order (about half the two-argument ones) is settled by comparing each
// argument with the next where they stand, without splitting.
function isSortedInPlace(query: string): boolean {
  let start = 0;
  let end = query.indexOf("&");
  for (;;) {
    const nextStart = end + 1;
    let nextEnd = query.indexOf("&", nextStart);
    if (nextEnd === -1) nextEnd = query.length;
    if (compareRanges(query, start, end, nextStart, nextEnd) > 0) return false;
    if (nextEnd === query.length) return true;
    start = nextStart;
    end = nextEnd;
  }
}

// compareArgs on query[aStart, aEnd) and query[bStart, bEnd).
function compareRanges(q: string, aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  let na = aStart;
  while (na < aEnd && q.charCodeAt(na) !== 0x3d) na++;
  let nb = bStart;
  while (nb < bEnd && q.charCodeAt(nb) !== 0x3d) nb++;
  const la = na - aStart;
  const lb = nb - bStart;
  const common = Math.min(la, lb);
  for (let i = 0; i < common; i++) {
    const d = q.charCodeAt(aStart + i) - q.charCodeAt(bStart + i);
    if (d !== 0) return d;
  }
  if (la !== lb) return la - lb;
  const bareA = na === aEnd;
  const bareB = nb === bEnd;
  if (bareA || bareB) return bareA === bareB ? 0 : bareA ? -1 : 1;
  for (let i = na + 1, k = nb + 1; ; i++, k++) {
    if (i === aEnd) return k === bEnd ? 0 : -1;
    if (k === bEnd) return 1;
    const d = q.charCodeAt(i) - q.charCodeAt(k);
    if (d !== 0) return d;
  }
}

// Past this many arguments the engine's sort (n log n) takes over from the insertion sort (n²),
// so a hostile query of many arguments stays linearithmic.
const INSERTION_LIMIT = 16;

function nameLength(arg: string): number {
  const eq = arg.indexOf("=");
  return eq === -1 ? arg.length : eq;
}

// Compares two arguments as written (no objects per argument: this runs for every key): by name
// in code-unit order, then the bare argument first, then by value.
function compareArgs(a: string, b: string): number {
  const na = nameLength(a);
  const nb = nameLength(b);
  const common = Math.min(na, nb);
  for (let i = 0; i < common; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  if (na !== nb) return na - nb;
  const bareA = a.length === na;
  const bareB = b.length === nb;
  if (bareA || bareB) return bareA === bareB ? 0 : bareA ? -1 : 1;
  // The values in code-unit order, read in place rather than sliced out.
  for (let i = na + 1, k = nb + 1; ; i++, k++) {
    if (i === a.length) return k === b.length ? 0 : -1;
    if (k === b.length) return 1;
    const d = a.charCodeAt(i) - b.charCodeAt(k);
    if (d !== 0) return d;
  }
}
