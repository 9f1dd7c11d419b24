import { HttpError } from "./http-error.js";

/**
 * Reads a request body as UTF-8 text, at most `maxBytes` of it. A declared `Content-Length` over
 * the limit is refused before a byte is read; a body that grows past it (chunked, or lying about
 * its length) is cancelled at the first chunk that crosses it, so a client cannot make the
 * service buffer more than the limit. Over the limit: `HttpError` 413 `body-too-large`; bytes that
 * are not UTF-8: 400.
 *
 * @example
 * ```ts
 * const text = await readBody(request, 4 * 1024 * 1024);
 * ```
 */
export async function readBody(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new HttpError(413, "body-too-large", `the body is larger than ${maxBytes} bytes`);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
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
