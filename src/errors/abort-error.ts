import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** Codes an {@link AbortError} carries. */
export type AbortErrorCode = "aborted";

/**
 * The caller stopped the operation: its `AbortSignal` fired, or a batch it stopped could not
 * finish an input. Distinct from {@link TimeoutError} (`timeout`), which is a deadline canonurl
 * enforced, so a caller (and a cache) can tell "I cancelled it" from "the server was too slow".
 * The caller's abort reason is kept as `cause`. The `name` is `AbortError`, as the web platform
 * names an aborted `fetch`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = client.resolve("http://example.com/", { signal: controller.signal });
 * controller.abort();
 * await pending.catch((e) => e.code); // "aborted"
 * ```
 */
export class AbortError extends CanonError {
  override name = "AbortError";
  declare readonly code: AbortErrorCode;

  constructor(code: AbortErrorCode, message: string, options: CanonErrorOptions = {}) {
    super(code, message, options);
  }
}
