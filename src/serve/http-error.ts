/** The error codes the service answers with, beside the library's own (`invalid-url`, …). */
export type ServeErrorCode =
  | "bad-request"
  | "invalid-option"
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "body-too-large"
  | "batch-too-large"
  | "too-many-requests"
  | "unsupported-media-type"
  | "shutting-down"
  | "timeout"
  | "internal";

/**
 * An HTTP failure of the service: its status and the `{error: {code, message}}` body api.md §9
 * fixes. Thrown inside a handler; the app's error handler turns it into the response.
 *
 * @example
 * ```ts
 * throw new HttpError(413, "batch-too-large", "a batch holds at most 10000 URLs");
 * ```
 */
export class HttpError extends Error {
  override name = "HttpError";
  readonly status: 400 | 401 | 403 | 404 | 408 | 413 | 415 | 429 | 500 | 503;
  readonly code: ServeErrorCode | string;

  constructor(status: HttpError["status"], code: ServeErrorCode | string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * The JSON response of an {@link HttpError}. A 401 carries the `WWW-Authenticate` challenge
 * RFC 6750 §3 asks for; a 429 or 503 says when to come back.
 *
 * @example
 * ```ts
 * errorResponse(new HttpError(429, "too-many-requests", "over the limit")).status; // 429
 * ```
 */
export function errorResponse(error: HttpError): Response {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (error.status === 401) headers["www-authenticate"] = 'Bearer realm="canonurl"';
  if (error.status === 429) headers["retry-after"] = "1";
  // After a 503 (shutting down) or a 408 (a body cut at the deadline, its rest unread) the
  // connection cannot carry another request.
  if (error.status === 503 || error.status === 408) headers.connection = "close";
  return new Response(JSON.stringify({ error: { code: error.code, message: error.message } }), {
    status: error.status,
    headers,
  });
}
