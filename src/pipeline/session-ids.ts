import { stripPathSessionId, stripQuerySessionId } from "../archive/strip-session-ids.js";
import { splitQuery } from "../url/query-params.js";

// Servlet containers put the session in a path parameter (Jakarta Servlet §7.1.3, URL rewriting):
// "/shop;jsessionid=0A1B2C?x=1". Bounded by the next "/" or ";": linear in the path.
const PATH_JSESSIONID = /;jsessionid=[^/;]*/gi;

/**
 * Removes session ids in their well-known forms from a path: `;jsessionid=…` path parameters and
 * ASP.NET's cookieless `/(S(…))/` segment (as the Internet Archive's canonicalizer does).
 *
 * @example
 * ```ts
 * removePathSessionIds("/shop/cart;jsessionid=0A1B2C3D"); // "/shop/cart"
 * ```
 */
export function removePathSessionIds(path: string): string {
  const out = path.includes(";") ? path.replace(PATH_JSESSIONID, "") : path;
  return stripPathSessionId(out);
}

/**
 * Removes session ids from a query (no `?`): `jsessionid=`, `PHPSESSID=` and `sid=` with 32
 * letters or digits, `ASPSESSIONIDxxxxxxxx=` with 24 letters, `CFID=…&CFTOKEN=…`, the Internet
 * Archive's forms (archive/strip-session-ids.ts), each once.
 *
 * @example
 * ```ts
 * removeQuerySessionIds("PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile"); // "action=profile"
 * ```
 */
export function removeQuerySessionIds(query: string): string {
  return stripQuerySessionId(query);
}

/**
 * The names of the pairs of `before` that `after` ({@link removeQuerySessionIds}'s output on it)
 * no longer holds, in `before`'s order: what the pipeline lists as stripped session ids. Shared by
 * the generic pass and the fast path, which must list them alike.
 *
 * @example
 * ```ts
 * removedSessionNames("PHPSESSID=0123456789abcdefghijklemopqrstuv&a=1", "a=1"); // ["PHPSESSID"]
 * ```
 */
export function removedSessionNames(before: string, after: string): string[] {
  const left = new Set(splitQuery(after).map((p) => p.name));
  return splitQuery(before)
    .map((p) => p.name)
    .filter((name) => !left.has(name));
}
