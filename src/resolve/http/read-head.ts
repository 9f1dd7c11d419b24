import { pipeline, Readable, type Transform } from "node:stream";
import { constants, createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

function createDecoder(coding: string): Transform | null {
  switch (coding) {
    case "gzip":
    case "x-gzip":
      // Lenient like browsers: a truncated gzip member still yields what it holds.
      return createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    case "deflate":
      return createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    case "br":
      return createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * The body's bytes with its `Content-Encoding` undone (RFC 9110 §8.4: codings listed in the order
 * applied, so undone in reverse), or `null` when a coding is one we cannot undo. Decoding is
 * streamed with backpressure: the caller's byte limit counts decoded bytes and stops the inflater,
 * so a gzip bomb is never expanded past it. Breaking out of the iteration closes the source.
 *
 * @example
 * ```ts
 * const bytes = decodeBody(response.body, response.headers["content-encoding"]);
 * if (bytes !== null) for await (const chunk of bytes) { ... }
 * ```
 */
export function decodeBody(
  body: AsyncIterable<Uint8Array>,
  contentEncoding: string | readonly string[] | undefined,
): AsyncIterable<Uint8Array> | null {
  const fields =
    contentEncoding === undefined
      ? []
      : typeof contentEncoding === "string"
        ? [contentEncoding]
        : contentEncoding;
  const codings = fields
    .flatMap((field) => field.split(","))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0) return body;
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    const decoder = createDecoder(coding);
    if (decoder === null) return null;
    decoders.push(decoder);
  }
  const source = Readable.from(body, { objectMode: false });
  // pipeline() destroys every stage when one fails or the consumer stops early, and the error
  // reaches the consumer through the last stage's iterator.
  pipeline([source, ...decoders], () => {});
  return decoders[decoders.length - 1] as Transform;
}
