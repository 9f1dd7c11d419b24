import { AbortError } from "../errors/abort-error.js";
import { TimeoutError } from "../errors/timeout-error.js";

/**
 * The error for an input stopped by the caller's signal. A signal that aborts with a
 * `TimeoutError` (`AbortSignal.timeout()`, a service's per-request deadline) is a deadline the
 * caller set, so it reads as one: `TimeoutError` `timeout`. Any other reason is `AbortError`
 * `aborted`, with the reason as `cause`, so a stop and a deadline stay apart.
 *
 * @example
 * ```ts
 * callerStopError("http://a.test/", new Error("user")).code;                          // "aborted"
 * callerStopError("http://a.test/", new DOMException("5 s", "TimeoutError")).code;    // "timeout"
 * ```
 */
export function callerStopError(url: string, reason: unknown): AbortError | TimeoutError {
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return new TimeoutError("timeout", `timed out by the caller's deadline (${reason.message}): ${url}`, {
      url,
      cause: reason,
    });
  }
  return new AbortError("aborted", `aborted by the caller: ${url}`, { url, cause: reason });
}
