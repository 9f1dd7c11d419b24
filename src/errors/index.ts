export { AbortError, type AbortErrorCode } from "./abort-error.js";
export { CanonError, type CanonErrorCode, type CanonErrorOptions } from "./canon-error.js";
export { FetchError, type FetchErrorCode } from "./fetch-error.js";
export {
  isAbortError,
  isCanonError,
  isFetchError,
  isRedirectError,
  isResponseTooLargeError,
  isRuleError,
  isSecurityError,
  isTimeoutError,
  isUrlError,
} from "./guards.js";
export { RedirectError, type RedirectErrorCode } from "./redirect-error.js";
export { ResponseTooLargeError, type ResponseTooLargeErrorCode } from "./response-too-large-error.js";
export { RuleError, type RuleErrorCode, type RuleProblem } from "./rule-error.js";
export { SecurityError, type SecurityErrorCode } from "./security-error.js";
export { TimeoutError, type TimeoutErrorCode } from "./timeout-error.js";
export { UrlError, type UrlErrorCode } from "./url-error.js";
