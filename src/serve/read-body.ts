import { HttpError } from "./http-error.js";

/**
 * Reads a request body as UTF-8 text, at most `maxBytes` of it. A declared `Content-Length` over
 * the limit is refused before a byte is read; a body that grows past it (chunked, or lying about
 * its length) is cancelled at the first chunk that crosses it, so a client cannot make the
 * service buffer more than the limit. Over the limit: `HttpError` 413 `body-too-large`; bytes that
 * are not UTF-8: 400; not all there when `signal` aborts (the request's deadline): 408 `timeout`.
 *
 * @example
 * ```ts
 * const text = await readBody(request, 4 * 1024 * 1024);
 * ```
 */
export async function readBody(
  request: Request,
  maxBytes: number,
  signal: AbortSignal = new AbortController().signal,
): Promise<string> {
  const tooLarge = () => new HttpError(413, "body-too-large", `the body is larger than ${maxBytes} bytes`);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  if (request.body === null) return "";
  const reader = request.body.getReader();
  // The request's deadline covers its body (issue 23): a client trickling bytes is cut there
  // instead of holding its slot until Node's own 300 s limit.
  const timedOut = () =>
    new HttpError(408, "timeout", "the request body did not arrive within the request's deadline");
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(timedOut());
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (signal.aborted) {
      void reader.cancel().catch(() => {});
      throw timedOut();
    }
    throw error;
  } finally {
    if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, "bad-request", "the body is not UTF-8");
  }
}
