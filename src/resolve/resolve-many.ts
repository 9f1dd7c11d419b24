import type { CanonError } from "../errors/canon-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import { raceSignal } from "./deadline.js";
import type { Outcome, Resolution } from "./types.js";

/** Wakes every waiter on the next change; the one synchronization point of the pool. */
class Changed {
  private waiters: Array<() => void> = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

function iteratorOf(
  inputs: Iterable<string> | AsyncIterable<string>,
): AsyncIterator<string> | Iterator<string> {
  return Symbol.asyncIterator in inputs
    ? (inputs as AsyncIterable<string>)[Symbol.asyncIterator]()
    : (inputs as Iterable<string>)[Symbol.iterator]();
}

/**
 * Resolves many URLs with at most `concurrency` in flight and yields one `Outcome` per input as
 * each completes (each carries its input `index`). Failures are values, never thrown. Inputs are
 * pulled lazily, and a slot frees only when its outcome has been taken, so memory stays bounded
 * whatever the input length. Aborting `signal` aborts the in-flight resolutions and makes the
 * iteration reject with a `TimeoutError`; stopping the iteration early aborts them too.
 *
 * @example
 * ```ts
 * for await (const outcome of resolveMany(urls, (url, signal) => client.resolve(url, { signal }), { concurrency: 8 })) {
 *   console.log(outcome.index, outcome.ok ? outcome.result.url : outcome.error.code);
 * }
 * ```
 */
export async function* resolveMany(
  inputs: Iterable<string> | AsyncIterable<string>,
  resolveOne: (input: string, signal: AbortSignal) => Promise<Resolution>,
  init: { concurrency: number; signal?: AbortSignal | undefined },
  toError: (error: unknown, input: string) => CanonError,
): AsyncGenerator<Outcome> {
  const { concurrency, signal } = init;
  const stop = new AbortController();
  const combined = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
  const iterator = iteratorOf(inputs);
  const ready: Outcome[] = [];
  const changed = new Changed();
  let inFlight = 0;
  let exhausted = false;
  let inputFailure: { error: unknown } | null = null;
  combined.addEventListener("abort", () => changed.notify(), { once: true });

  const start = (input: string, index: number): void => {
    inFlight++;
    resolveOne(input, combined)
      .then(
        (result): Outcome => ({ index, input, ok: true, result }),
        (error: unknown): Outcome => ({ index, input, ok: false, error: toError(error, input) }),
      )
      .then((outcome) => {
        inFlight--;
        ready.push(outcome);
        changed.notify();
      });
  };

  // The pump pulls inputs on its own, so an outcome is yielded as soon as it is ready even while
  // the next input (a slow stdin) has not arrived.
  const pump = (async () => {
    try {
      let index = 0;
      for (;;) {
        while (inFlight + ready.length >= concurrency && !combined.aborted) await changed.wait();
        if (combined.aborted) return;
        const pulled = iterator.next();
        // A sync iterable (an array) answers at once: no race, no listener on the shared signal per
        // input. An async one (stdin) may stall, and the abort must still end the batch.
        const step =
          typeof (pulled as { then?: unknown }).then === "function"
            ? await raceSignal(Promise.resolve(pulled), combined)
            : (pulled as IteratorResult<string>);
        if (step.done === true) return;
        start(step.value, index++);
      }
    } catch (error) {
      if (!combined.aborted) inputFailure = { error };
    } finally {
      exhausted = true;
      changed.notify();
    }
  })();

  try {
    for (;;) {
      if (signal?.aborted === true) {
        throw new TimeoutError("timeout", "resolveMany aborted by the caller", { cause: signal.reason });
      }
      const outcome = ready.shift();
      if (outcome !== undefined) {
        changed.notify();
        yield outcome;
        continue;
      }
      if (inputFailure !== null) throw (inputFailure as { error: unknown }).error;
      if (exhausted && inFlight === 0) return;
      await changed.wait();
    }
  } finally {
    stop.abort();
    await pump;
    if (!exhausted || inFlight > 0) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}
