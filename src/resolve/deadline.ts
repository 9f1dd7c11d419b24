import type { AbortError } from "../errors/abort-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import { followAbort, ownFanout } from "./abort-fanout.js";
import { callerStopError } from "./caller-stop-error.js";

/** One operation's deadline: the caller's signal combined with the total timeout. */
export interface Deadline {
  /** Aborts when the caller aborts or the total timeout passes; every await takes it. */
  readonly signal: AbortSignal;
  /**
   * The error for `url` that this deadline's abort stands for: `TimeoutError` (`timeout`) when the
   * total timeout passed, `AbortError` (`aborted`) when the caller's signal fired first.
   */
  toError(url: string): TimeoutError | AbortError;
  /**
   * Settles with `promise`, or rejects with the abort reason as soon as the deadline aborts; the
   * same as {@link raceSignal} on `signal`, without an abort listener per await.
   */
  race<T>(promise: Promise<T>): Promise<T>;
  /** Clears the timer so a finished operation keeps no handle alive. */
  dispose(): void;
}

/**
 * Starts the one deadline of an operation (architecture rule 8): the caller's signal combined with
 * a total timeout. The timeout becomes a `TimeoutError` (`timeout`), the caller's abort an
 * `AbortError` (`aborted`) with the caller's reason as `cause`, so the two stay distinguishable.
 *
 * @example
 * ```ts
 * const deadline = createDeadline(30_000, userSignal);
 * try { await work(deadline.signal); } finally { deadline.dispose(); }
 * ```
 */
export function createDeadline(totalTimeoutMs: number, signal?: AbortSignal): Deadline {
  const controller = new AbortController();
  const started = performance.now();
  let timedOut = false;
  // Created on the first race() and shared by every later one: the operation is short-lived, so the
  // reactions Promise.race leaves on it die with the deadline. Rejected by abort() itself, so no
  // listener is needed on the signal.
  let aborted: Promise<never> | undefined;
  let rejectAborted: ((reason: unknown) => void) | undefined;
  // The deadline aborts its own signal, so it fans the abort out to followers itself.
  const fanOut = ownFanout(controller.signal);
  const abort = (reason: unknown): void => {
    controller.abort(reason);
    fanOut();
    rejectAborted?.(controller.signal.reason);
  };
  // A plain timer, not AbortSignal.timeout(): it can be cleared when the operation ends, so a
  // batch of thousands does not leave thousands of 30-second timers behind.
  const timer = setTimeout(() => {
    // The first abort decides what the operation ended by: a caller's abort stays "aborted" even
    // if the timer fires before the operation has unwound.
    if (controller.signal.aborted) return;
    timedOut = true;
    abort(new DOMException(`total timeout of ${totalTimeoutMs} ms`, "TimeoutError"));
  }, totalTimeoutMs);
  timer.unref?.();
  const stopFollowing = signal === undefined ? undefined : followAbort(signal, () => abort(signal.reason));
  const combined = controller.signal;
  return {
    signal: combined,
    race<T>(promise: Promise<T>): Promise<T> {
      if (combined.aborted) {
        promise.catch(() => {});
        return Promise.reject(combined.reason);
      }
      if (aborted === undefined) {
        aborted = new Promise<never>((_, reject) => {
          rejectAborted = reject;
        });
        aborted.catch(() => {});
      }
      return Promise.race([promise, aborted]);
    },
    toError(url) {
      if (timedOut || signal?.aborted !== true) {
        const elapsed = Math.round(performance.now() - started);
        return new TimeoutError(
          "timeout",
          `timed out after ${elapsed} ms (limit ${totalTimeoutMs} ms): ${url}`,
          {
            url,
            cause: combined.reason,
          },
        );
      }
      return callerStopError(url, signal.reason);
    },
    dispose() {
      clearTimeout(timer);
      stopFollowing?.();
    },
  };
}

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts, so an await
 * never outlives the deadline even when the awaited work ignores the signal.
 *
 * @example
 * ```ts
 * const response = await raceSignal(transport.request(req), deadline.signal);
 * ```
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Iterates `source`, rejecting as soon as `signal` aborts (and closing the source), so a body that
 * stalls mid-stream cannot hold a resolution past its deadline.
 *
 * @example
 * ```ts
 * for await (const chunk of abortableIterable(response.body, deadline.signal)) { ... }
 * ```
 */
export async function* abortableIterable<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const step = await raceSignal(iterator.next(), signal);
      if (step.done === true) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (!finished) void iterator.return?.()?.catch?.(() => {});
  }
}
