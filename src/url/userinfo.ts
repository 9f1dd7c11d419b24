/**
 * A URL's userinfo as its serialization writes it: `username`, `:password` when there is one, and
 * `@`; nothing when both are empty (WHATWG URL §4.5 URL serializer, step 2.1). The generic pass,
 * a rule's rewrite and the final pass all build an href from parts with it.
 *
 * @example
 * ```ts
 * userinfoOf("ann", ""); // "ann@"
 * userinfoOf("", "pw"); // ":pw@"
 * ```
 */
export function userinfoOf(username: string, password: string): string {
  return username === "" && password === "" ? "" : `${username}${password === "" ? "" : `:${password}`}@`;
}
