// The responses made here, so the request gate holds a slot until their last byte is out while
// every other answer, complete when its handler returns, frees its slot at once (see app.ts).
const streamed = new WeakSet<Response>();

/**
 * Whether `response` came from {@link ndjsonResponse}: its work goes on after the handler returns.
 *
 * @example
 * ```ts
 * isStreamedResponse(ndjsonResponse((async function* () {})())); // true
 * ```
 */
export function isStreamedResponse(response: Response): boolean {
  return streamed.has(response);
}

/**
 * A streamed NDJSON response from an async source of text chunks (each one or more whole lines):
 * each chunk is encoded and written when the socket asks for more, so a slow client holds back
 * the producer instead of letting answers pile up in memory. If the client goes away the source is
 * closed (its `finally` runs). `onClose` runs once the stream ends, fails or is cancelled.
 *
 * @example
 * ```ts
 * return ndjsonResponse((async function* () { yield '{"ok":true}\n'; })());
 * ```
 */
export function ndjsonResponse(source: AsyncIterator<string>, onClose: () => void = () => {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let step: IteratorResult<string>;
        try {
          step = await source.next();
        } catch (error) {
          onClose();
          throw error;
        }
        if (step.done === true) {
          onClose();
          controller.close();
        } else controller.enqueue(encoder.encode(step.value));
      },
      async cancel() {
        // Also when the source never started: a generator's `finally` would not run then.
        onClose();
        await source.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  const response = new Response(body, {
    status: 200,
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" },
  });
  streamed.add(response);
  return response;
}
