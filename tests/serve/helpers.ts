import type { Hono } from "hono";

/** Reads an NDJSON body into its parsed lines. */
export async function ndjsonLines(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  assertNdjsonText(text);
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function assertNdjsonText(text: string): void {
  if (text !== "" && !text.endsWith("\n"))
    throw new Error(`NDJSON must end with a newline: ${text.slice(-40)}`);
}

/** POSTs `body` to `path` of an in-process app. */
export function post(
  app: Hono,
  path: string,
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init: RequestInit & { duplex?: "half" } = { method: "POST", body, headers };
  if (typeof body !== "string") init.duplex = "half";
  return Promise.resolve(app.request(path, init));
}

/** A request body the test feeds by hand: the request stays in flight until `end()`. */
export function heldBody(): { stream: ReadableStream<Uint8Array>; push(text: string): void; end(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    push: (text) => controller.enqueue(new TextEncoder().encode(text)),
    end: () => controller.close(),
  };
}

/** NDJSON of `{"url": …}` lines. */
export function ndjson(urls: readonly string[]): string {
  return urls.map((url) => `${JSON.stringify({ url })}\n`).join("");
}
