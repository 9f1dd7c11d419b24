import type { QueryParam } from "../url/query-params.js";
import type { Parsed } from "./path-pattern.js";
import { compileTemplate, fillTemplate, type Template } from "./template.js";

/** A compiled `PathPattern.rewrite`: the new path, and the query parameters it sets. */
export interface CompiledRewrite {
  readonly path: Template;
  /** Parameters set by the rewrite, in template order; names are literal, values templates. */
  readonly query: readonly { readonly name: string; readonly value: Template | null }[];
}

/**
 * Compiles a rewrite (`"/watch?v={id}"`, `"/p/{id}/"`): a path template, then optionally `?` and
 * `name=value` pairs whose values may use captures. Parameter names are literal so the rule's
 * output query is known at load.
 *
 * @example
 * ```ts
 * compileRewrite("/watch?v={id}", ["id"]); // { ok: true, value: { path: ["/watch"], query: [{ name: "v", value: [0] }] } }
 * ```
 */
export function compileRewrite(text: string, names: readonly string[]): Parsed<CompiledRewrite> {
  if (!text.startsWith("/")) return { ok: false, message: 'a rewrite starts with "/"' };
  if (/[#\s]/.test(text)) return { ok: false, message: "a rewrite has no fragment or whitespace" };
  const q = text.indexOf("?");
  const path = compileTemplate(q === -1 ? text : text.slice(0, q), names);
  if (!path.ok) return path;
  const query: { name: string; value: Template | null }[] = [];
  if (q !== -1) {
    for (const pair of text.slice(q + 1).split("&")) {
      if (pair === "") return { ok: false, message: "empty query parameter in rewrite" };
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (name === "" || /[{}]/.test(name))
        return { ok: false, message: `query parameter names in a rewrite are literal, got "${name}"` };
      if (eq === -1) {
        query.push({ name, value: null });
        continue;
      }
      const value = compileTemplate(pair.slice(eq + 1), names);
      if (!value.ok) return value;
      query.push({ name, value: value.value });
    }
  }
  return { ok: true, value: { path: path.value, query } };
}

// A capture comes from the path, already percent-encoded for a path; inside a query value only
// the characters that would split or re-mean the pair need escaping.
const encodeForQuery = (value: string): string =>
  value.replace(/[&=+]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The `name=value` strings a rewrite sets, filled with capture values.
 *
 * @example
 * ```ts
 * const r = compileRewrite("/watch?v={id}", ["id"]);
 * r.ok && rewriteQuery(r.value, ["a&b"]); // ["v=a%26b"]
 * ```
 */
export function rewriteQuery(rewrite: CompiledRewrite, values: readonly string[]): string[] {
  return rewriteQueryParams(rewrite, values).map((p) => (p.value === null ? p.name : `${p.name}=${p.value}`));
}

/**
 * The pairs a rewrite sets, filled with capture values: {@link rewriteQuery} as {@link QueryParam}s,
 * for a caller that holds the query as pairs already.
 *
 * @example
 * ```ts
 * const r = compileRewrite("/watch?v={id}", ["id"]);
 * r.ok && rewriteQueryParams(r.value, ["a&b"]); // [{ name: "v", value: "a%26b" }]
 * ```
 */
export function rewriteQueryParams(rewrite: CompiledRewrite, values: readonly string[]): QueryParam[] {
  return rewrite.query.map((p) => ({
    name: p.name,
    value: p.value === null ? null : fillTemplate(p.value, values, encodeForQuery),
  }));
}
