import { CanonError, type CanonErrorOptions } from "./canon-error.js";

/** Codes a {@link SecurityError} carries. */
export type SecurityErrorCode = "blocked-address" | "blocked-port" | "userinfo" | "scheme-downgrade";

/**
 * A destination broke the security policy (SSRF address policy, port policy, userinfo, https to http). Raised before any connection is made.
 *
 * @example
 * ```ts
 * throw new SecurityError("blocked-port", "port 22 is not allowed: http://a.test:22/", { url: "http://a.test:22/" });
 * ```
 */
export class SecurityError extends CanonError {
  override name = "SecurityError";
  declare readonly code: SecurityErrorCode;

  constructor(code: SecurityErrorCode, message: string, options: CanonErrorOptions = {}) {
    super(code, message, options);
  }
}
