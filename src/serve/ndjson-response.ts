/**
 * A streamed NDJSON response from an async source of text chunks (each one or more whole lines):
 * each chunk is encoded and written when the socket asks for more, so a slow client holds back
 * the producer instead of letting answers pile up in memory. If the client goes away the source is
 * closed (its `finally` runs).
 *
 * @example
 * ```ts
 * return ndjsonResponse((async function* () { yield '{"ok":true}\n'; })());
 * ```
 */
export function ndjsonResponse(source: AsyncIterator<string>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const step = await source.next();
        if (step.done === true) controller.close();
        else controller.enqueue(encoder.encode(step.value));
      },
      async cancel() {
        await source.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
}
