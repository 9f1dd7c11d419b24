import { AbortError } from "../errors/abort-error.js";
import { CanonError } from "../errors/canon-error.js";
import { UrlError } from "../errors/url-error.js";
import { followAbort } from "./abort-fanout.js";
import { checkBatchArgument, checkConcurrency, checkSignalArgument, typeName } from "./call-arguments.js";
import { callerStopError } from "./caller-stop-error.js";
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

type Inputs = Iterable<unknown> | AsyncIterable<unknown>;

function iteratorOf(inputs: Inputs): AsyncIterator<unknown> | Iterator<unknown> {
  return Symbol.asyncIterator in inputs
    ? (inputs as AsyncIterable<unknown>)[Symbol.asyncIterator]()
    : (inputs as Iterable<unknown>)[Symbol.iterator]();
}

/** What {@link resolveMany} runs each input with, and how it maps a failure. */
export interface BatchWork {
  resolveOne: (input: string, signal: AbortSignal) => Promise<Resolution>;
  toError: (error: unknown, input: string) => CanonError;
  /**
   * Whether resolving `input` now would only join a resolution already running (an identical one
   * in flight, or one whose result is being stored): such an input makes no request of its own,
   * so it runs beside the `concurrency` slots instead of in one. Absent: every input takes a slot.
   */
  joins?: (input: string) => boolean;
}

/**
 * Inputs that join a running resolution, per slot, at most at once. Each costs only a pending
 * promise, but a list of one URL repeated a million times must not hold a million of them: past
 * this bound a duplicate waits like any input.
 */
export const JOINED_PER_SLOT = 16;

/** Most inputs of a batch that may wait on a running resolution at once, beside `concurrency` slots. */
export function joinedBound(concurrency: number): number {
  return Math.min(JOINED_PER_SLOT * concurrency, 4_096);
}

// The failure of an element that is not a string: a value like any other failure (api.md: an
// Outcome's error is a CanonError), `invalid-url` because it is no URL, with the TypeError that a
// single `resolve()` would throw as its cause, and the index and type in the message.
function notAString(value: unknown, index: number): Outcome {
  const message = `canonurl: input ${index} must be a string, got ${typeName(value)}`;
  return {
    index,
    input: "",
    ok: false,
    error: new UrlError("invalid-url", message, { cause: new TypeError(message) }),
  };
}

// The mapping is total (toCanonError never throws), but a batch must end whatever it is handed,
// so a mapping that throws still yields a CanonError rather than losing the outcome.
function mapSafely(work: BatchWork, error: unknown, input: string): CanonError {
  try {
    return work.toError(error, input);
  } catch (mappingFailure) {
    if (error instanceof CanonError) return error;
    return new CanonError(
      "connection-failed",
      `resolution failed and its error could not be read: ${input}`,
      {
        url: input,
        cause: mappingFailure,
      },
    );
  }
}

function callSafely(work: BatchWork, input: string, signal: AbortSignal): Promise<Resolution> {
  try {
    return Promise.resolve(work.resolveOne(input, signal));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Resolves many URLs with at most `concurrency` in flight and yields exactly one `Outcome` per
 * input it takes, as each completes (each carries its input `index`). Failures are values, never
 * thrown, and so is an element that is not a string (`invalid-url`, naming its index and type,
 * with a `TypeError` cause; its `input` is `""`). Inputs are pulled lazily, and a slot frees only
 * when its outcome has been taken, so memory stays bounded whatever the input length. An input
 * that `work.joins` says would only join a resolution already running (a duplicate, with a cache)
 * waits beside the slots, at most {@link joinedBound} of them at once, so duplicates never keep a
 * distinct URL from the network.
 *
 * How a batch ends, always after every input it took has been reported:
 * - the inputs run out: the iteration ends;
 * - the caller's `signal` aborts: no further input is taken, the inputs in flight are reported as
 *   failed with `AbortError` (`aborted`), then the iteration rejects with an `AbortError`
 *   (`aborted`). The outcomes before it are indexes `0 … n-1`, so `n` is where to resume;
 * - the input iterable throws or rejects: no further input is taken, the inputs in flight finish
 *   normally and are reported, then the iteration rejects with the iterable's own error;
 * - the consumer stops iterating (`break`): the inputs in flight are aborted and not reported.
 *
 * Called with a wrong argument (a string instead of an iterable, a concurrency that is not an
 * integer from 1 to 10000, a `signal` that is not an `AbortSignal`) it throws a `TypeError` at
 * once, before anything is read.
 *
 * @example
 * ```ts
 * for await (const outcome of resolveMany(urls, { resolveOne, toError }, { concurrency: 8 })) {
 *   console.log(outcome.index, outcome.ok ? outcome.result.url : outcome.error.code);
 * }
 * ```
 */
export function resolveMany(
  inputs: Iterable<unknown> | AsyncIterable<unknown>,
  work: BatchWork,
  init: { concurrency?: unknown; signal?: unknown; defaultConcurrency: number },
): AsyncGenerator<Outcome> {
  checkBatchArgument(inputs);
  const concurrency = checkConcurrency(init.concurrency, init.defaultConcurrency);
  const signal = init.signal;
  checkSignalArgument(signal);
  return runBatch(inputs, work, concurrency, signal);
}

async function* runBatch(
  inputs: Inputs,
  work: BatchWork,
  concurrency: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<Outcome> {
  const stop = new AbortController();
  const combined = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
  let iterator: AsyncIterator<unknown> | Iterator<unknown> | null = null;
  const ready: Outcome[] = [];
  const changed = new Changed();
  let inFlight = 0; // inputs holding one of the `concurrency` slots
  let joined = 0; // inputs waiting on a resolution already running, beside the slots
  const joinBound = work.joins === undefined ? 0 : joinedBound(concurrency);
  let taken = 0;
  let exhausted = false;
  // The source iterator ended by itself (done, or it threw): it needs no return().
  let sourceEnded = false;
  let cutShort = false;
  let inputFailure: { error: unknown } | null = null;
  const unfollowBatch = followAbort(combined, () => changed.notify());

  const settle = (index: number, input: string, pending: Promise<Outcome>, slot: boolean): void => {
    let settled = false;
    const deliver = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      unfollow();
      if (slot) inFlight--;
      else joined--;
      ready.push(outcome);
      changed.notify();
    };
    // A resolution that ignores its signal must not hold the batch open after the caller's abort:
    // it is reported as aborted at once (its own late result is dropped).
    const unfollow = followAbort(combined, () => {
      cutShort = true;
      const reason: unknown = signal?.aborted === true ? signal.reason : combined.reason;
      deliver({
        index,
        input,
        ok: false,
        error: callerStopError(input, reason),
      });
    });
    pending.then(deliver);
  };

  const start = (value: unknown, index: number, slot: boolean): void => {
    if (slot) inFlight++;
    else joined++;
    if (typeof value !== "string") {
      settle(index, "", Promise.resolve(notAString(value, index)), slot);
      return;
    }
    settle(
      index,
      value,
      callSafely(work, value, combined).then(
        (result): Outcome => ({ index, input: value, ok: true, result }),
        (error: unknown): Outcome => ({
          index,
          input: value,
          ok: false,
          error: mapSafely(work, error, value),
        }),
      ),
      slot,
    );
  };

  // A duplicate of a resolution already running makes no request: it waits beside the slots (up
  // to joinBound of them), so the slots go to inputs that need the network.
  const joinsRunning = (value: unknown): boolean => {
    if (joined >= joinBound || work.joins === undefined || typeof value !== "string") return false;
    try {
      return work.joins(value) === true;
    } catch {
      return false; // a broken hint only costs the slot it would have saved
    }
  };

  // The pump pulls inputs on its own, so an outcome is yielded as soon as it is ready even while
  // the next input (a slow stdin) has not arrived.
  const pump = (async () => {
    try {
      if (combined.aborted) return;
      iterator = iteratorOf(inputs);
      for (;;) {
        // Every outcome not yet taken is memory: slots, joined inputs and ready outcomes together
        // never exceed concurrency + joinBound.
        while (inFlight + joined + ready.length >= concurrency + joinBound && !combined.aborted) {
          await changed.wait();
        }
        if (combined.aborted) return;
        const pulled = iterator.next();
        // A sync iterable (an array) answers at once: no race, no listener on the shared signal per
        // input. An async one (stdin) may stall, and the abort must still end the batch.
        const step =
          typeof (pulled as { then?: unknown } | null)?.then === "function"
            ? await raceSignal(Promise.resolve(pulled), combined)
            : (pulled as IteratorResult<unknown>);
        if (step.done === true) {
          sourceEnded = true;
          return;
        }
        if (joinsRunning(step.value)) {
          start(step.value, taken++, false);
          continue;
        }
        // An input that needs a slot waits for one, and a slot frees only when its outcome has
        // been taken. Held here, it is not yet taken: an abort now leaves it to the resume.
        while (inFlight + ready.length >= concurrency && !combined.aborted) await changed.wait();
        if (combined.aborted) return;
        start(step.value, taken++, true);
      }
    } catch (error) {
      // An abort that rejected the raced pull is not the source's failure; anything else is.
      if (!combined.aborted) {
        sourceEnded = true;
        inputFailure = { error };
      }
    } finally {
      if (combined.aborted) cutShort = true;
      exhausted = true;
      changed.notify();
    }
  })();

  try {
    for (;;) {
      const outcome = ready.shift();
      if (outcome !== undefined) {
        changed.notify();
        yield outcome;
        continue;
      }
      if (exhausted && inFlight + joined === 0) break;
      await changed.wait();
    }
  } finally {
    stop.abort();
    unfollowBatch();
    await pump;
    // An iterator we stopped before its end is told so (the protocol's return()); one that ended
    // or threw by itself is not. Its own failure to close must not mask how the batch ended.
    if (iterator !== null && !sourceEnded) {
      const open = iterator as { return?: () => unknown };
      try {
        void Promise.resolve(open.return?.()).catch(() => {});
      } catch {
        // A throwing return() changes nothing for a batch that is already over.
      }
    }
  }
  if (cutShort && signal?.aborted === true) {
    throw new AbortError(
      "aborted",
      `resolveMany aborted by the caller after taking ${taken} inputs: each has its outcome; ` +
        `inputs from index ${taken} on were not started`,
      { cause: signal.reason },
    );
  }
  if (inputFailure !== null) throw (inputFailure as { error: unknown }).error;
}
