import { AbortError } from "../../errors/abort-error.js";
import { CanonError } from "../../errors/canon-error.js";
import { FetchError } from "../../errors/fetch-error.js";
import { ResponseTooLargeError } from "../../errors/response-too-large-error.js";
import { TimeoutError } from "../../errors/timeout-error.js";

// undici's own timeout codes (lib/core/errors.js): each is one of our connect/read deadlines.
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

// OpenSSL X509_V_ERR_* names as Node reports them (`err.code`), plus Node's own TLS codes. A server
// that answers TLS with plain HTTP surfaces as ERR_SSL_WRONG_VERSION_NUMBER, also a TLS failure.
const TLS_CODES = new Set([
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_CRL",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECRYPT_CRL_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "CERT_SIGNATURE_FAILURE",
  "CRL_SIGNATURE_FAILURE",
  "CERT_NOT_YET_VALID",
  "CERT_HAS_EXPIRED",
  "CRL_NOT_YET_VALID",
  "CRL_HAS_EXPIRED",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
  "ERROR_IN_CRL_LAST_UPDATE_FIELD",
  "ERROR_IN_CRL_NEXT_UPDATE_FIELD",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "CERT_CHAIN_TOO_LONG",
  "CERT_REVOKED",
  "INVALID_CA",
  "PATH_LENGTH_EXCEEDED",
  "INVALID_PURPOSE",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "HOSTNAME_MISMATCH",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_TLS_HANDSHAKE_TIMEOUT",
]);

function field(value: unknown, key: "code" | "name"): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    const found = (value as Record<string, unknown>)[key];
    return typeof found === "string" ? found : undefined;
  } catch {
    return undefined;
  }
}

function codeOf(value: unknown): string | undefined {
  return field(value, "code");
}

function nameOf(value: unknown): string | undefined {
  return field(value, "name");
}

// undici wraps socket errors (SocketError with `cause`); look down the chain, not just at the top.
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && out.length < 8 && !out.includes(current)) {
    out.push(current);
    try {
      current = (current as { cause?: unknown }).cause;
    } catch {
      break;
    }
  }
  return out;
}

function isTls(code: string | undefined): boolean {
  return (
    code !== undefined && (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_"))
  );
}

// Reading a hostile value's `message` or stringifying it may throw (a getter, a throwing
// toString, a revoked Proxy); the mapping must not, so every read of it is guarded.
function describe(error: unknown): string {
  try {
    const code = codeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    return code !== undefined && !message.includes(code) ? `${code} ${message}` : message;
  } catch {
    return `unprintable ${typeof error}`;
  }
}

// `instanceof` itself throws on a revoked Proxy.
function isInstance(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

function hrefOf(url: unknown): string {
  if (typeof url === "string") return url;
  if (isInstance(url, URL)) return (url as URL).href;
  return `(${typeof url})`;
}

/**
 * The error an aborted signal's `reason` stands for: a `CanonError` reason as it is; a
 * `TimeoutError`-named reason (the deadline's own timer, `AbortSignal.timeout`) is `timeout`;
 * anything else is the caller's abort, `aborted`. `what` names the phase for the message.
 *
 * @example
 * ```ts
 * abortReasonError(AbortSignal.abort().reason, "http://a.test/", "request").code; // "aborted"
 * ```
 */
export function abortReasonError(reason: unknown, url: string, what: string): CanonError {
  if (isInstance(reason, CanonError)) return reason as CanonError;
  if (nameOf(reason) === "TimeoutError") {
    return new TimeoutError("timeout", `timed out during ${what} (${describe(reason)}): ${url}`, {
      url,
      cause: reason,
    });
  }
  return new AbortError("aborted", `${what} aborted by the caller (${describe(reason)}): ${url}`, {
    url,
    cause: reason,
  });
}

/**
 * Maps anything a request can throw (undici errors, socket and TLS errors, abort reasons) to a
 * {@link CanonError} with the original as `cause`, so no raw error escapes the resolver. A
 * `CanonError` passes through unchanged; undici's connect/headers/body timeouts become
 * `TimeoutError` `timeout`; a response head over undici's header limit `ResponseTooLargeError`
 * `response-too-large`; certificate and handshake failures `FetchError` `tls`; the rest
 * `FetchError` `connection-failed`. Pass the request's signal so an abort is recognised whatever
 * undici wrapped it in ({@link abortReasonError}: the deadline's timer is `timeout`, the caller's
 * abort `aborted`, a `CanonError` reason is returned as is). Total: it never throws, whatever
 * `error` and `url` are (a hostile getter, a non-string URL), so a batch's error path cannot fail.
 *
 * @example
 * ```ts
 * try { await transport.request(req); }
 * catch (error) { throw toCanonError(error, req.url, req.signal); }
 * ```
 */
export function toCanonError(error: unknown, url: string | URL, signal?: AbortSignal): CanonError {
  const href = hrefOf(url);
  if (isInstance(error, CanonError)) return error as CanonError;
  if (signal?.aborted) {
    const mapped = abortReasonError(signal.reason, href, "request");
    // The undici error that the abort surfaced as is the more useful cause when there is one.
    if (mapped !== signal.reason && error !== undefined && error !== signal.reason) {
      return mapped.code === "timeout"
        ? new TimeoutError("timeout", mapped.message, { url: href, cause: error })
        : new AbortError("aborted", mapped.message, { url: href, cause: error });
    }
    return mapped;
  }
  const links = chain(error);
  for (const link of links) {
    const code = codeOf(link);
    const name = nameOf(link);
    if ((code !== undefined && TIMEOUT_CODES.has(code)) || name === "TimeoutError" || name === "AbortError") {
      return new TimeoutError("timeout", `timed out (${describe(link)}): ${href}`, {
        url: href,
        cause: error,
      });
    }
  }
  for (const link of links) {
    // undici refuses a response head over its maxHeaderSize (Node's 16 KiB default): a 1 MiB Link
    // or Location never reaches a parser of ours. That is the response's size, not the network.
    if (codeOf(link) === "UND_ERR_HEADERS_OVERFLOW") {
      return new ResponseTooLargeError(
        "response-too-large",
        `response head too large (${describe(link)}): ${href}`,
        {
          url: href,
          cause: error,
        },
      );
    }
  }
  for (const link of links) {
    if (isTls(codeOf(link))) {
      return new FetchError("tls", `TLS failed (${describe(link)}): ${href}`, { url: href, cause: error });
    }
  }
  return new FetchError("connection-failed", `connection failed (${describe(error)}): ${href}`, {
    url: href,
    cause: error,
  });
}
