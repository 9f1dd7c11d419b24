import { followAbort } from "./abort-fanout.js";

/** One piece of shared work and the callers waiting on it. */
interface Shared<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiting: number;
  /** The work has settled (the key is only kept while its result is being stored). */
  settled: boolean;
}

/** What a caller of {@link InFlight.run} gets: the value, and whether it was already there when asked. */
export interface Joined<T> {
  value: T;
  /** The work had finished before this caller asked: the value was known, not waited for. */
  late: boolean;
}

/**
 * Work shared by key: while a resolution for a key runs, further callers of that key wait for it
 * instead of starting their own. Each caller keeps its own abort: one caller giving up rejects
 * only that caller; the shared work is aborted only when every caller waiting on it has given up.
 */
export interface InFlight<T> {
  /**
   * Runs `work` for `key`, or joins the run already in progress. `work` gets a signal that aborts
   * once every caller has aborted, and `keep(p)`: the key stays joinable (the settled result is
   * handed to late callers) until `p` settles too, so a result being written to a cache is never
   * fetched twice in the gap. `abortError(reason)` is what a caller whose own signal aborts gets.
   */
  run(
    key: string,
    signal: AbortSignal | undefined,
    work: (signal: AbortSignal, keep: (until: Promise<unknown>) => void) => Promise<T>,
    abortError: (reason: unknown) => unknown,
  ): Promise<Joined<T>>;
  /** Keys with work running or kept. */
  readonly size: number;
}

/**
 * Creates an {@link InFlight} table.
 *
 * @example
 * ```ts
 * const inFlight = createInFlight<Resolution>();
 * const [a, b] = await Promise.all([
 *   inFlight.run(key, undefined, (signal) => resolveUrl(url, ctx, signal), (r) => r),
 *   inFlight.run(key, undefined, (signal) => resolveUrl(url, ctx, signal), (r) => r), // joins the first
 * ]);
 * ```
 */
export function createInFlight<T>(): InFlight<T> {
  const table = new Map<string, Shared<T>>();

  function start(
    key: string,
    work: (signal: AbortSignal, keep: (until: Promise<unknown>) => void) => Promise<T>,
  ): Shared<T> {
    const controller = new AbortController();
    let kept: Promise<unknown> | undefined;
    let promise: Promise<T>;
    try {
      promise = work(controller.signal, (until) => {
        kept = until;
      });
    } catch (error) {
      promise = Promise.reject(error);
    }
    const shared: Shared<T> = { promise, controller, waiting: 0, settled: false };
    table.set(key, shared);
    const release = (): void => {
      // A run that was abandoned may have been replaced by a new one under the same key.
      if (table.get(key) === shared) table.delete(key);
    };
    const settle = (): void => {
      shared.settled = true;
      if (kept === undefined) release();
      else kept.then(release, release);
    };
    promise.then(settle, settle);
    return shared;
  }

  return {
    run(key, signal, work, abortError) {
      if (signal?.aborted) return Promise.reject(abortError(signal.reason));
      let shared = table.get(key);
      // Work every earlier caller abandoned is being torn down: a new caller starts afresh.
      if (shared === undefined || shared.controller.signal.aborted) shared = start(key, work);
      const joined = shared;
      const late = joined.settled;
      joined.waiting++;
      if (signal === undefined) {
        return joined.promise.then((value) => ({ value, late }));
      }
      return new Promise<Joined<T>>((resolve, reject) => {
        // One listener per signal, however many callers share it (a batch hands one to all).
        const cleanup = followAbort(signal, () => {
          cleanup();
          reject(abortError(signal.reason));
          if (--joined.waiting === 0) joined.controller.abort(signal.reason);
        });
        joined.promise.then(
          (value) => {
            cleanup();
            resolve({ value, late });
          },
          (error: unknown) => {
            cleanup();
            reject(error);
          },
        );
      });
    },
    get size() {
      return table.size;
    },
  };
}
