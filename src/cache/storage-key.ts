import { createHash } from "node:crypto";

/** Keys longer than this (UTF-16 code units) are stored by their hash: a URL can be megabytes. */
export const MAX_KEY_CHARS = 512;

/** The prefix of a hashed key. A raw key that starts with it is hashed too, so the two never meet. */
export const HASHED_KEY_PREFIX = "#sha256:";

// With the u flag a surrogate pair is one code point, so this matches lone halves only.
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The key a store files an entry under. Short keys are kept as they are (readable in `redis-cli`
 * or `sqlite3`); a key is replaced by `#sha256:` and the SHA-256 of its UTF-16 code units when it
 * is longer than {@link MAX_KEY_CHARS}, starts with `#`, or (for stores that keep UTF-8 bytes,
 * `bytesStore`) holds a lone surrogate: UTF-8 encoding turns every lone half into U+FFFD, so
 * "\uD800" and "\uDC00" would become one key.
 *
 * @example
 * ```ts
 * storageKey("https://example.com/", true); // "https://example.com/"
 * storageKey("x".repeat(600), true);       // "#sha256:…" (64 hex digits)
 * ```
 */
export function storageKey(key: string, bytesStore: boolean): string {
  if (typeof key !== "string") throw new TypeError("cache key: expected a string");
  if (
    key.length > MAX_KEY_CHARS ||
    key.charCodeAt(0) === 35 || // "#"
    (bytesStore && LONE_SURROGATE.test(key))
  ) {
    return HASHED_KEY_PREFIX + createHash("sha256").update(Buffer.from(key, "utf16le")).digest("hex");
  }
  return key;
}
