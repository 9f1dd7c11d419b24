import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** Codes a {@link RedirectError} carries. */
export type RedirectErrorCode = "redirect-loop" | "too-many-hops" | "invalid-location";

/**
 * A redirect or canonical-link chain looped, ran out of hops, or pointed nowhere usable.
 *
 * @example
 * ```ts
 * throw new RedirectError("too-many-hops", "more than 10 hops from http://a.test/");
 * ```
 */
export class RedirectError extends CanonError {
  override name = "RedirectError";
  declare readonly code: RedirectErrorCode;

  constructor(code: RedirectErrorCode, message: string, options: CanonErrorOptions = {}) {
    super(code, message, options);
  }
}
