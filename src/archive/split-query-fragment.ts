/**
 * Splits what follows a URL's scheme at its first `#` (the fragment), then at the first `?` before
 * it (the query), as RFC 3986 §3 reads them: `null` for an absent part, `""` for an empty one.
 *
 * @example
 * ```ts
 * splitQueryFragment("//a.test/p?q#f"); // { before: "//a.test/p", query: "q", fragment: "f" }
 * splitQueryFragment("//a.test/p");     // { before: "//a.test/p", query: null, fragment: null }
 * ```
 */
export function splitQueryFragment(rest: string): {
  before: string;
  query: string | null;
  fragment: string | null;
} {
  const hash = rest.indexOf("#");
  const fragment = hash === -1 ? null : rest.slice(hash + 1);
  const head = hash === -1 ? rest : rest.slice(0, hash);
  const question = head.indexOf("?");
  if (question === -1) return { before: head, query: null, fragment };
  return { before: head.slice(0, question), query: head.slice(question + 1), fragment };
}
