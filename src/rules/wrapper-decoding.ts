/**
 * How a wrapper encodes its target, when it is not plain form encoding: Proofpoint URL Defense
 * rewrites links in mail in two documented schemes. Each decoder takes the raw target text (the
 * `u` parameter for v2, the path after `/v3/` plus the query for v3) and returns the URL text or
 * `undefined` when the text is not in that scheme.
 *
 * - `proofpoint-v2`: `/v2/url?u=https-3A__www.example.org_a` — `_` stands for `/` and `-XX` for
 *   the percent-escape `%XX` (https://help.proofpoint.com/Threat_Insight_Dashboard/Concepts/How_do_I_decode_a_rewritten_URL%3F,
 *   taken 2026-12-05).
 * - `proofpoint-v3`: `/v3/__https://www.example.org/a__;!!token$` — the URL sits between `__` and
 *   `__;`. Characters the scheme replaced by `*` are restored from an encoded tail; such links are
 *   left alone (not claimed) rather than guessed.
 *
 * Linear in the input: one pass of two regular expressions without nested quantifiers.
 * @example
 * ```ts
 * decodeWrappedTarget("proofpoint-v2", "https-3A__www.example.org_a"); // "https://www.example.org/a"
 * ```
 */
export type WrapperDecoding = "proofpoint-v2" | "proofpoint-v3";

/** The decodings an unwrap form may name, for the validator. */
export const WRAPPER_DECODINGS: readonly WrapperDecoding[] = ["proofpoint-v2", "proofpoint-v3"];

/**
 * Decodes `raw` by `decoding`; `undefined` when it is not in that scheme.
 * @example
 * ```ts
 * decodeWrappedTarget("proofpoint-v3", "__https://example.org/a__;!!x$"); // "https://example.org/a"
 * ```
 */
export function decodeWrappedTarget(decoding: WrapperDecoding, raw: string): string | undefined {
  if (decoding === "proofpoint-v2") {
    const escaped = raw.replace(/_/g, "/").replace(/-([0-9A-Fa-f]{2})/g, "%$1");
    try {
      return decodeURIComponent(escaped);
    } catch {
      return undefined;
    }
  }
  // v3: "__" URL "__;" tail. indexOf, not a regular expression: the URL may itself hold "__".
  if (!raw.startsWith("__")) return undefined;
  const end = raw.lastIndexOf("__;");
  if (end < 2) return undefined;
  const inner = raw.slice(2, end);
  return inner.includes("*") ? undefined : inner;
}
