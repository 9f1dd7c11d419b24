import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** Codes a {@link UrlError} carries. */
export type UrlErrorCode = "invalid-url" | "unsupported-scheme";

/**
 * The input is not a URL canonurl can work with: unparseable, or not http(s).
 *
 * @example
 * ```ts
 * throw new UrlError("invalid-url", "invalid URL: \\"http://[\\"", { url: "http://[" });
 * ```
 */
export class UrlError extends CanonError {
  override name = "UrlError";
  declare readonly code: UrlErrorCode;

  constructor(code: UrlErrorCode, message: string, options: CanonErrorOptions = {}) {
    super(code, message, options);
  }
}
