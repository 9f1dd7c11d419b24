import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** Codes a {@link ResponseTooLargeError} carries. */
export type ResponseTooLargeErrorCode = "response-too-large";

/**
 * A response was too large to read: the HTML head did not end within `maxBodyBytes`, or the
 * response's header section exceeded the HTTP client's limit (16 KiB).
 *
 * @example
 * ```ts
 * throw new ResponseTooLargeError("response-too-large", "head exceeds 1048576 bytes: http://a.test/");
 * ```
 */
export class ResponseTooLargeError extends CanonError {
  override name = "ResponseTooLargeError";
  declare readonly code: ResponseTooLargeErrorCode;

  constructor(code: ResponseTooLargeErrorCode, message: string, options: CanonErrorOptions = {}) {
    super(code, message, options);
  }
}
