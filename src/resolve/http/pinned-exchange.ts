import type { Duplex } from "node:stream";
import type { Dispatcher } from "undici";
import { TimeoutError } from "../../errors/timeout-error.js";
import { followAbort } from "../abort-fanout.js";
import { toCanonError } from "./to-canon-error.js";
import type { TransportResponse } from "./transport.js";

// Buffered body bytes beyond which the socket is paused until the reader catches up: the same
// figure Node's file streams (and undici's own body stream) use.
const HIGH_WATER_MARK = 64 * 1024;

type Controller = Dispatcher.DispatchController;

/** How an exchange watches its request head being written. */
export interface WriteWatch {
  /** Holds the socket of the connection the exchange runs on, once connected. */
  readonly socketOf: { readonly socket: Duplex | null };
  readonly writeTimeoutMs: number;
}

/**
 * One request/response exchange on a pinned connection, as an undici dispatch handler. It stands in
 * for undici's `request()` API, whose per-response `Readable`, async-iterator and abort plumbing cost
 * more CPU than the rest of a hop (measured in bench/resolve.ts); here the body is a plain queue
 * read through an async iterator, with pause/resume for back-pressure.
 *
 * The head promise settles once: with the final (≥ 200) response, or with the error that prevented
 * one. Body errors after that reach the reader. `settled` runs once the exchange is over, whatever
 * way it ended, so the owner can count the connection free again. The exchange is itself the
 * response it hands over (status, headers, body, dispose), so a response costs no objects or
 * closures beyond the exchange.
 *
 * @example
 * ```ts
 * const exchange = new PinnedExchange(href, signal, () => inFlight--);
 * client.dispatch({ origin, path, method: "HEAD", headers }, exchange);
 * const response = await exchange.head;
 * ```
 */
export class PinnedExchange implements Dispatcher.DispatchHandler, TransportResponse {
  readonly head: Promise<TransportResponse>;
  status = 0;
  headers: Readonly<Record<string, string | readonly string[]>> = {};
  /** True when the exchange failed before any response arrived (the connection is suspect). */
  failedBeforeResponse = false;
  private resolveHead!: (response: TransportResponse) => void;
  private rejectHead!: (error: unknown) => void;
  private controller: Controller | null = null;
  private started = false;
  private done = false;
  private failure: unknown = undefined;
  private disposed = false;
  private readonly chunks: Uint8Array[] = [];
  private buffered = 0;
  private waiter: (() => void) | null = null;
  private readonly unfollow: () => void;
  private writeWatch: {
    socket: Duplex;
    onDrain: () => void;
    timer: ReturnType<typeof setTimeout>;
  } | null = null;

  constructor(
    private readonly href: string,
    private readonly signal: AbortSignal,
    private readonly settled: () => void,
    private readonly write?: WriteWatch,
  ) {
    this.head = new Promise<TransportResponse>((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    this.unfollow = followAbort(signal, () => this.abort(signal.reason));
  }

  onRequestStart(controller: Controller): void {
    // Called again when undici retries the request on a fresh socket: the latest controller counts.
    this.controller = controller;
    if (this.signal.aborted) controller.abort(this.signal.reason as Error);
    // undici writes the request head synchronously right after this call; by the next microtask
    // it is either in the kernel or still queued on the socket.
    else if (this.write !== undefined) queueMicrotask(() => this.watchWrite());
  }

  // undici has no write timeout. A head still queued on the socket means the peer is not reading:
  // it gets writeTimeoutMs to drain, then the exchange fails with `timeout`.
  private watchWrite(): void {
    // A retried request (undici starts it again on a fresh socket) is watched afresh.
    this.unwatchWrite();
    const socket = this.write?.socketOf.socket;
    if (this.done || this.started || socket == null || socket.writableLength === 0) return;
    const limit = (this.write as WriteWatch).writeTimeoutMs;
    const onDrain = (): void => this.unwatchWrite();
    const timer = setTimeout(() => {
      this.unwatchWrite();
      const queued = socket.writableLength;
      this.abort(
        new TimeoutError(
          "timeout",
          `request head not written within ${limit} ms (writeTimeoutMs): ${this.href}`,
          {
            url: this.href,
            cause: new Error(`${queued} bytes still queued on the socket`),
          },
        ),
      );
    }, limit);
    socket.once("drain", onDrain);
    this.writeWatch = { socket, onDrain, timer };
  }

  private unwatchWrite(): void {
    const watch = this.writeWatch;
    if (watch === null) return;
    this.writeWatch = null;
    clearTimeout(watch.timer);
    watch.socket.off("drain", watch.onDrain);
  }

  onResponseStart(
    _controller: Controller,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx interim responses pass through here too; only the final response counts.
    if (statusCode < 200 || this.started) return;
    this.started = true;
    this.unwatchWrite();
    this.status = statusCode;
    // undici's parser lowercases names and gathers repeated fields into arrays.
    this.headers = headers as Record<string, string | string[]>;
    this.resolveHead(this);
  }

  get body(): AsyncIterable<Uint8Array> {
    return this;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return this.iterator();
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.disposed) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    if (this.buffered >= HIGH_WATER_MARK) controller.pause();
    this.wake();
  }

  onResponseEnd(): void {
    this.finish(undefined);
  }

  onResponseError(_controller: Controller, error: Error): void {
    this.finish(error);
  }

  private finish(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.unfollow();
    this.unwatchWrite();
    if (error !== undefined) {
      this.failure = error;
      if (!this.started) {
        this.failedBeforeResponse = true;
        this.rejectHead(toCanonError(error, this.href, this.signal));
      }
    }
    this.settled();
    this.wake();
  }

  private abort(reason: unknown): void {
    if (this.done) return;
    // Before the request reaches a socket there is no controller yet; onRequestStart aborts then.
    this.controller?.abort(reason as Error);
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  private async *iterator(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk !== undefined) {
        this.buffered -= chunk.length;
        if (this.buffered < HIGH_WATER_MARK && this.controller?.paused === true) this.controller.resume();
        yield chunk;
        continue;
      }
      if (this.disposed) return;
      if (this.failure !== undefined) throw toCanonError(this.failure, this.href, this.signal);
      if (this.done) return;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.chunks.length = 0;
    this.buffered = 0;
    // Closing, not draining: an unfinished body takes its connection with it (undici destroys the
    // socket of an aborted request). A finished exchange has already given the connection back.
    if (!this.done) this.abort(new Error("response body not read to the end"));
    this.wake();
  }
}
