import type { AbortError } from "./abort-error.js";
import type { CanonError, CanonErrorCode } from "./canon-error.js";
import type { FetchError } from "./fetch-error.js";
import type { RedirectError } from "./redirect-error.js";
import type { ResponseTooLargeError } from "./response-too-large-error.js";
import type { RuleError } from "./rule-error.js";
import type { SecurityError } from "./security-error.js";
import type { TimeoutError } from "./timeout-error.js";
import type { UrlError } from "./url-error.js";

// Guards check the stable `code`, not `instanceof`, so they hold across realms (workers, vm contexts)
// and for two copies of canonurl in one dependency tree.
const CODE_CLASS: Readonly<Record<CanonErrorCode, string>> = {
  "invalid-url": "UrlError",
  "unsupported-scheme": "UrlError",
  "blocked-address": "SecurityError",
  "blocked-port": "SecurityError",
  userinfo: "SecurityError",
  "scheme-downgrade": "SecurityError",
  "redirect-loop": "RedirectError",
  "too-many-hops": "RedirectError",
  "invalid-location": "RedirectError",
  timeout: "TimeoutError",
  aborted: "AbortError",
  "response-too-large": "ResponseTooLargeError",
  "connection-failed": "FetchError",
  tls: "FetchError",
  "http-status": "FetchError",
  "invalid-rule": "RuleError",
};

function hasCodeOf(value: unknown, className: string | undefined): boolean {
  // Error-like, not `instanceof Error`: an Error from another realm fails instanceof.
  if (typeof value !== "object" || value === null) return false;
  if (typeof (value as { message?: unknown }).message !== "string") return false;
  const code = (value as { code?: unknown }).code;
  if (typeof code !== "string" || !Object.hasOwn(CODE_CLASS, code)) return false;
  return className === undefined || CODE_CLASS[code as CanonErrorCode] === className;
}

function guardFor<T extends CanonError>(className: string): (value: unknown) => value is T {
  return (value: unknown): value is T => hasCodeOf(value, className);
}

/**
 * True for any canonurl error, from any realm.
 *
 * @example
 * ```ts
 * isCanonError(new UrlError("invalid-url", "bad")); // true
 * ```
 */
export function isCanonError(value: unknown): value is CanonError {
  return hasCodeOf(value, undefined);
}

/**
 * True for a {@link UrlError} (`invalid-url`, `unsupported-scheme`).
 *
 * @example
 * ```ts
 * isUrlError(new UrlError("invalid-url", "bad")); // true
 * ```
 */
export const isUrlError: (value: unknown) => value is UrlError = guardFor<UrlError>("UrlError");

/**
 * True for a {@link SecurityError}.
 *
 * @example
 * ```ts
 * isSecurityError(new SecurityError("userinfo", "no")); // true
 * ```
 */
export const isSecurityError: (value: unknown) => value is SecurityError =
  guardFor<SecurityError>("SecurityError");

/**
 * True for a {@link RedirectError}.
 *
 * @example
 * ```ts
 * isRedirectError(new RedirectError("redirect-loop", "loop")); // true
 * ```
 */
export const isRedirectError: (value: unknown) => value is RedirectError =
  guardFor<RedirectError>("RedirectError");

/**
 * True for a {@link TimeoutError}.
 *
 * @example
 * ```ts
 * isTimeoutError(new TimeoutError("timeout", "slow")); // true
 * ```
 */
export const isTimeoutError: (value: unknown) => value is TimeoutError =
  guardFor<TimeoutError>("TimeoutError");

/**
 * True for an {@link AbortError} (`aborted`): the caller's own signal stopped the operation.
 *
 * @example
 * ```ts
 * isAbortError(new AbortError("aborted", "stopped")); // true
 * ```
 */
export const isAbortError: (value: unknown) => value is AbortError = guardFor<AbortError>("AbortError");

/**
 * True for a {@link ResponseTooLargeError}.
 *
 * @example
 * ```ts
 * isResponseTooLargeError(new ResponseTooLargeError("response-too-large", "big")); // true
 * ```
 */
export const isResponseTooLargeError: (value: unknown) => value is ResponseTooLargeError =
  guardFor<ResponseTooLargeError>("ResponseTooLargeError");

/**
 * True for a {@link FetchError}.
 *
 * @example
 * ```ts
 * isFetchError(new FetchError("tls", "bad certificate")); // true
 * ```
 */
export const isFetchError: (value: unknown) => value is FetchError = guardFor<FetchError>("FetchError");

/**
 * True for a {@link RuleError}.
 *
 * @example
 * ```ts
 * isRuleError(new RuleError("invalid-rule", "bad rules")); // true
 * ```
 */
export const isRuleError: (value: unknown) => value is RuleError = guardFor<RuleError>("RuleError");
