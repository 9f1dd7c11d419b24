import { isUrlError } from "../../src/index.js";

/** What a normalization gave: its key, or the code of the UrlError it threw. */
export type Outcome = { ok: true; value: string } | { ok: false; code: string };

/**
 * Runs `f` and says what came of it, so that two ways of normalizing can be compared on failures
 * as well as on keys (the property tests hold a fast lane against explain()). Anything thrown that
 * is not a UrlError is thrown on: that is a bug, not an answer.
 *
 * @example
 * ```ts
 * attempt(() => normalize("http://a.test/")); // { ok: true, value: "http://a.test/" }
 * ```
 */
export function attempt(f: () => string): Outcome {
  try {
    return { ok: true, value: f() };
  } catch (error) {
    if (isUrlError(error)) return { ok: false, code: error.code };
    throw error;
  }
}
