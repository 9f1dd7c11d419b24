import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** Codes a {@link TimeoutError} carries. */
export type TimeoutErrorCode = "timeout";

/**
 * The operation ran past one of its deadlines (total, connect, read or write).
 *
 * @example
 * ```ts
 * throw new TimeoutError("timeout", "timed out after 30000 ms: http://a.test/");
 * ```
 */
export class TimeoutError extends CanonError {
  override name = "TimeoutError";
  declare readonly code: TimeoutErrorCode;

  constructor(code: TimeoutErrorCode, message: string, options: CanonErrorOptions = {}) {
    super(code, message, options);
  }
}
