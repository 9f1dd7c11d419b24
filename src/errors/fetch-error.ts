import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** Codes a {@link FetchError} carries. */
export type FetchErrorCode = "connection-failed" | "tls" | "http-status";

/**
 * A request failed: the network, TLS, or an unsuccessful HTTP status (kept in `status`).
 *
 * @example
 * ```ts
 * throw new FetchError("http-status", "HTTP 404: http://a.test/", { status: 404 });
 * ```
 */
export class FetchError extends CanonError {
  override name = "FetchError";
  declare readonly code: FetchErrorCode;
  /** The HTTP status for `http-status`; `undefined` otherwise. */
  readonly status: number | undefined;

  constructor(code: FetchErrorCode, message: string, options: CanonErrorOptions & { status?: number } = {}) {
    super(code, message, options);
    this.status = options.status;
  }
}
