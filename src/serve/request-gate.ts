import { HttpError } from "./http-error.js";

/**
 * Counts requests in flight (a streamed answer counts until its last byte is written or the client
 * goes away), refuses the one past `limit` with 429, refuses everything with 503 once draining
 * starts, and tells the shutdown when the last one finished.
 *
 * @example
 * ```ts
 * const gate = createRequestGate(64);
 * const release = gate.enter(); // throws HttpError 429 or 503
 * release();
 * ```
 */
export interface RequestGate {
  /** Requests in flight now. */
  readonly active: number;
  /** Whether {@link RequestGate.drain} was called. */
  readonly draining: boolean;
  /** Admits one request and returns its release (idempotent), or throws 429 / 503. */
  enter(): () => void;
  /** Refuses new requests from now on; resolves when none is in flight. */
  drain(): Promise<void>;
}

/**
 * Creates a {@link RequestGate} admitting at most `limit` requests at once.
 *
 * @example
 * ```ts
 * const gate = createRequestGate(2);
 * ```
 */
export function createRequestGate(limit: number): RequestGate {
  let active = 0;
  let draining = false;
  let idle: (() => void) | null = null;
  const gate: RequestGate = {
    get active() {
      return active;
    },
    get draining() {
      return draining;
    },
    enter() {
      if (draining) throw new HttpError(503, "shutting-down", "the service is shutting down");
      if (active >= limit) {
        throw new HttpError(429, "too-many-requests", `more than ${limit} requests in flight`);
      }
      active++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active--;
        if (active === 0 && idle !== null) idle();
      };
    },
    drain() {
      draining = true;
      if (active === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idle = resolve;
      });
    },
  };
  return gate;
}

/**
 * Wraps a response so `release` runs when its body has been read to the end, fails, or is
 * cancelled (the client went away); a response without a body releases at once.
 *
 * @example
 * ```ts
 * return releaseWhenSent(response, release);
 * ```
 */
export function releaseWhenSent(response: Response, release: () => void): Response {
  const body = response.body;
  if (body === null) {
    release();
    return response;
  }
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
  return new Response(wrapped, { status: response.status, headers: response.headers });
}
