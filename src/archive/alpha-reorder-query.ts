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
  const args = query.split("&");
  let sorted = true;
  for (let i = 1; i < args.length && sorted; i++)
    sorted = compareArgs(args[i - 1] as string, args[i] as string) <= 0;
  if (sorted) return query;
  return args.sort(compareArgs).join("&");
}

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
  const va = a.slice(na + 1);
  const vb = b.slice(nb + 1);
  return va < vb ? -1 : va > vb ? 1 : 0;
}
