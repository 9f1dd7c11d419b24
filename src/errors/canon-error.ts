/**
 * Every stable error code canonurl raises. The code, not the class, is the contract: it survives
 * serialization, crosses realms and worker boundaries, and is what the CLI prints.
 */
export type CanonErrorCode =
  | "invalid-url"
  | "unsupported-scheme"
  | "blocked-address"
  | "blocked-port"
  | "userinfo"
  | "scheme-downgrade"
  | "redirect-loop"
  | "too-many-hops"
  | "invalid-location"
  | "timeout"
  | "aborted"
  | "response-too-large"
  | "connection-failed"
  | "tls"
  | "http-status"
  | "invalid-rule";

/** Options every canonurl error accepts. */
export interface CanonErrorOptions {
  /** The underlying error, kept as the standard `cause`. */
  cause?: unknown;
  /** The URL the failure is about, when there is one. */
  url?: string;
}

/**
 * Base class of every error canonurl throws. Catch this to catch everything; branch on `code`.
 *
 * @example
 * ```ts
 * import { normalize, isCanonError } from "canonurl";
 * try { normalize("ftp://example.com/"); }
 * catch (e) { if (isCanonError(e)) console.log(e.code); } // "unsupported-scheme"
 * ```
 */
export class CanonError extends Error {
  override name = "CanonError";
  /** The stable machine-readable code. */
  readonly code: CanonErrorCode;
  /** The URL the failure is about, when there is one. */
  readonly url: string | undefined;

  constructor(code: CanonErrorCode, message: string, options: CanonErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.url = options.url;
  }

  /** A plain object for JSON output and logs: `{ code, message }`. */
  toJSON(): { code: CanonErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
