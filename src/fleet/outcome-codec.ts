import { AbortError } from "../errors/abort-error.js";
import { CanonError, type CanonErrorCode } from "../errors/canon-error.js";
import { FetchError } from "../errors/fetch-error.js";
import { RedirectError } from "../errors/redirect-error.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { SecurityError } from "../errors/security-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import { UrlError } from "../errors/url-error.js";
import type { Resolution } from "../resolve/types.js";
import { isBlankLine } from "../url/blank-line.js";
import { blankOutcome, type FleetOutcome } from "./blank-outcome.js";

/** An Outcome as it is stored in Redis: the error reduced to `{ code, name, message }`. */
export type StoredOutcome = { index: number; input: string } & (
  | { ok: true; result: Resolution; blank?: true }
  | { ok: false; error: { code: string; name: string; message: string } }
);

/**
 * The stored form of an outcome. A thrown value that is not a canonurl error (a bug, a crash of a
 * hook) keeps its message under the code `internal`, the code the CLI prints for it.
 *
 * @example
 * ```ts
 * encodeOutcome({ index: 0, input: "x", ok: false, error: new UrlError("invalid-url", "bad") });
 * // { index: 0, input: "x", ok: false, error: { code: "invalid-url", name: "UrlError", message: "bad" } }
 * ```
 */
export function encodeOutcome(outcome: FleetOutcome): StoredOutcome {
  if (outcome.ok) return { index: outcome.index, input: outcome.input, ok: true, result: outcome.result };
  return { index: outcome.index, input: outcome.input, ok: false, error: encodeError(outcome.error) };
}

/**
 * `{ code, name, message }` of any thrown value.
 *
 * @example
 * ```ts
 * encodeError(new TypeError("boom")); // { code: "internal", name: "TypeError", message: "boom" }
 * ```
 */
export function encodeError(error: unknown): { code: string; name: string; message: string } {
  if (error instanceof CanonError) return { code: error.code, name: error.name, message: error.message };
  if (error instanceof Error) return { code: "internal", name: error.name, message: error.message };
  return { code: "internal", name: "Error", message: String(error) };
}

// The class each code belongs to (api.md's error table), so a revived error passes the same
// instanceof and is* checks as the one the worker saw.
const CLASSES: Record<string, new (code: never, message: string) => CanonError> = {
  UrlError,
  SecurityError,
  RedirectError,
  TimeoutError,
  ResponseTooLargeError,
  FetchError,
  AbortError,
};

/**
 * The Outcome a stored one stands for, its error revived as the library's error class (a plain
 * `CanonError` when the name is unknown, e.g. `internal`). A blank input that a worker of an
 * earlier version stored as `invalid-url` reads as the `BlankOutcome` today's store it as.
 *
 * @example
 * ```ts
 * decodeOutcome({ index: 0, input: "x", ok: false, error: { code: "timeout", name: "TimeoutError", message: "m" } }).error instanceof TimeoutError; // true
 * ```
 */
export function decodeOutcome(stored: StoredOutcome): FleetOutcome {
  if (stored.ok) return stored;
  const { code, name, message } = stored.error;
  if (code === "invalid-url" && isBlankLine(stored.input)) return blankOutcome(stored.index, stored.input);
  const Class = CLASSES[name];
  const error =
    Class === undefined ? new CanonError(code as CanonErrorCode, message) : new Class(code as never, message);
  return { index: stored.index, input: stored.input, ok: false, error };
}
