/** What to do with a trailing slash on a non-root path. */
export type TrailingSlashPolicy = "keep" | "strip" | "add";

/**
 * Applies the trailing-slash policy to a path. The root path `/` is never changed (RFC 3986
 * §6.2.3: an empty path of an http(s) URL is `/`). `strip` removes every trailing slash
 * (`/a//` → `/a`); `add` appends one unless the path ends with one.
 *
 * @example
 * ```ts
 * applyTrailingSlash("/a/b/", "strip"); // "/a/b"
 * applyTrailingSlash("/a/b", "add");    // "/a/b/"
 * ```
 */
export function applyTrailingSlash(path: string, policy: TrailingSlashPolicy): string {
  if (policy === "keep" || path.length <= 1) return path;
  const endsWithSlash = path.charCodeAt(path.length - 1) === 0x2f;
  if (policy === "add") return endsWithSlash ? path : `${path}/`;
  if (!endsWithSlash) return path;
  let end = path.length - 1;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end === 0 ? "/" : path.slice(0, end);
}
