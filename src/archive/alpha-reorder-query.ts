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
  if (query.length <= 1) return query;
  const args = query.split("&").map((arg) => {
    const eq = arg.indexOf("=");
    return eq === -1 ? { name: arg, value: null } : { name: arg.slice(0, eq), value: arg.slice(eq + 1) };
  });
  args.sort((a, b) => {
    if (a.name !== b.name) return a.name < b.name ? -1 : 1;
    if (a.value === b.value) return 0;
    if (a.value === null) return -1;
    if (b.value === null) return 1;
    return a.value < b.value ? -1 : 1;
  });
  return args.map((a) => (a.value === null ? a.name : `${a.name}=${a.value}`)).join("&");
}
