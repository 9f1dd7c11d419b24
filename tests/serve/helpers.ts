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

/**
 * The Content-Type a batch body is sent with when a test names none: a string body would go as
 * `text/plain`, which the service reads as one URL per line (issue 23). A whole JSON array, or an
 * object naming "urls", is JSON; anything else NDJSON.
 */
export function batchType(body: string): string {
  try {
    const value: unknown = JSON.parse(body);
    if (Array.isArray(value) || (typeof value === "object" && value !== null && "urls" in value))
      return "application/json";
  } catch {}
  return "application/x-ndjson";
}

/** POSTs `body` to `path` of an in-process app (a batch Content-Type chosen when none is given). */
export function post(
  app: Hono,
  path: string,
  body: string | ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const typed = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  const contentType = typeof body === "string" ? batchType(body) : "application/x-ndjson";
  const sent = typed ? headers : { ...headers, "content-type": contentType };
  const init: RequestInit & { duplex?: "half" } = { method: "POST", body, headers: sent };
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
