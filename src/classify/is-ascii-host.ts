/**
 * The fail-closed companion of `UrlForm.host`'s ASCII-only fold: true when every code unit of
 * `host` is ASCII, so a homograph host (Cyrillic lookalikes, U+0130, U+212A) never string-matches
 * a canonical ASCII domain. Accepting international hosts means converting to punycode
 * explicitly, not relaxing this gate.
 *
 * @example
 * ```ts
 * isAsciiHost("example.com"); // true
 * isAsciiHost("ex\u0430mple.com"); // false (Cyrillic а)
 * ```
 */
export function isAsciiHost(host: string): boolean {
  for (let i = 0; i < host.length; i++) {
    if (host.charCodeAt(i) >= 0x80) return false;
  }
  return true;
}
