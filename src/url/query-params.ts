/** One `name=value` pair of a query, as written (percent-encoded). `value` is null for a bare `name`. */
export interface QueryParam {
  name: string;
  value: string | null;
}

/**
 * Splits a query (without `?`) on `&` into pairs, dropping empty segments (`a=1&&b=2`), which
 * carry nothing. Names and values stay encoded: nothing is ever decoded and re-encoded, so
 * `q=a%26b` keeps its escape.
 *
 * @example
 * ```ts
 * splitQuery("b=2&a&&c=x=y"); // [{name:"b",value:"2"},{name:"a",value:null},{name:"c",value:"x=y"}]
 * ```
 */
export function splitQuery(query: string): QueryParam[] {
  const params: QueryParam[] = [];
  let start = 0;
  // The next "=" at or after `start`, found again only once passed: a search per pair from its
  // start ran to the end of every pair without one ("a&a&a&…" was quadratic in the query).
  let nextEq = -2;
  while (start <= query.length) {
    let end = query.indexOf("&", start);
    if (end === -1) end = query.length;
    if (end > start) {
      if (nextEq !== -1 && nextEq < start) nextEq = query.indexOf("=", start);
      const eq = nextEq;
      params.push(
        eq === -1 || eq > end
          ? { name: query.slice(start, end), value: null }
          : { name: query.slice(start, eq), value: query.slice(eq + 1, end) },
      );
    }
    start = end + 1;
  }
  return params;
}

/**
 * Joins pairs back into a query string without the `?`.
 *
 * @example
 * ```ts
 * joinQuery([{ name: "a", value: "1" }, { name: "b", value: null }]); // "a=1&b"
 * ```
 */
export function joinQuery(params: readonly QueryParam[]): string {
  let out = "";
  for (let i = 0; i < params.length; i++) {
    const p = params[i] as QueryParam;
    if (i > 0) out += "&";
    out += p.value === null ? p.name : `${p.name}=${p.value}`;
  }
  return out;
}

/**
 * Sorts pairs by name, then value, in code-unit order (a bare `name` sorts before `name=`), so
 * that the order a link was written in never matters. Stable; returns the input itself when it is already in order.
 *
 * @example
 * ```ts
 * sortQueryParams([{ name: "b", value: "1" }, { name: "a", value: "2" }])[0].name; // "a"
 * ```
 */
export function sortQueryParams(params: readonly QueryParam[]): readonly QueryParam[] {
  // Most queries are short and many already sorted: a linear check spares the copy and the sort.
  let sorted = true;
  for (let i = 1; i < params.length && sorted; i++)
    sorted = compareParams(params[i - 1] as QueryParam, params[i] as QueryParam) <= 0;
  return sorted ? params : [...params].sort(compareParams);
}

function compareParams(x: QueryParam, y: QueryParam): number {
  if (x.name !== y.name) return x.name < y.name ? -1 : 1;
  if (x.value === y.value) return 0;
  if (x.value === null) return -1;
  if (y.value === null) return 1;
  return x.value < y.value ? -1 : 1;
}
