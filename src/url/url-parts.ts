/**
 * The components of a URL that declarative rules read, spelled exactly as the WHATWG `URL`
 * getters spell them (`protocol` with its `:`, `search` with its `?` or empty, `hash` with its `#`
 * or empty). A `URL` is one; the pipeline hands declarative rules a plain record built from the
 * generic pass instead, sparing a WHATWG parse of a string it has just serialized.
 *
 * @example
 * ```ts
 * const parts: UrlParts = { protocol: "https:", username: "", password: "", hostname: "x.com",
 *   port: "", pathname: "/jack", search: "", hash: "" };
 * ```
 */
export interface UrlParts {
  protocol: string;
  username: string;
  password: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
}
