import { followAbort } from "./abort-fanout.js";

/**
 * What shared work gets: its abort signal, created on first use (a hit served from a cache never
 * asks for one: creating an AbortController was the largest cost of a memoryCache hit, measured
 * in bench/cache.ts), and `keep(p)`.
 */
export interface SharedWork {
  /** Aborts once every caller waiting on the work has aborted. */
  signal(): AbortSignal;
  /** Keeps the key joinable, with the settled result, until `until` settles too. */
  keep(until: Promise<unknown>): void;
}

/** One piece of shared work and the callers waiting on it. */
interface Shared<T> {
  readonly promise: Promise<T>;
  /** Every caller gave up, with this reason. */
  abandoned: { reason: unknown } | undefined;
  controller: AbortController | undefined;
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
    work: (shared: SharedWork) => Promise<T>,
    abortError: (reason: unknown) => unknown,
  ): Promise<Joined<T>>;
  /** Whether a caller of `key` now would join work already running or kept (not start its own). */
  joinable(key: string): boolean;
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
 *   inFlight.run(key, undefined, (w) => resolveUrl(url, ctx, w.signal()), (r) => r),
 *   inFlight.run(key, undefined, (w) => resolveUrl(url, ctx, w.signal()), (r) => r), // joins the first
 * ]);
 * ```
 */
export function createInFlight<T>(): InFlight<T> {
  const table = new Map<string, Shared<T>>();

  function start(key: string, work: (shared: SharedWork) => Promise<T>): Shared<T> {
    let kept: Promise<unknown> | undefined;
    // Filled in before work() can call signal(): the object exists first, its promise after.
    const state = { abandoned: undefined, controller: undefined, waiting: 0, settled: false } as Omit<
      Shared<T>,
      "promise"
    >;
    const handle: SharedWork = {
      signal() {
        if (state.controller === undefined) {
          state.controller = new AbortController();
          if (state.abandoned !== undefined) state.controller.abort(state.abandoned.reason);
        }
        return state.controller.signal;
      },
      keep(until) {
        kept = until;
      },
    };
    let promise: Promise<T>;
    try {
      promise = work(handle);
    } catch (error) {
      promise = Promise.reject(error);
    }
    const shared = Object.assign(state, { promise }) as Shared<T>;
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
      if (shared === undefined || shared.abandoned !== undefined) shared = start(key, work);
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
          if (--joined.waiting === 0) {
            joined.abandoned = { reason: signal.reason };
            joined.controller?.abort(signal.reason);
          }
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
    joinable(key) {
      const shared = table.get(key);
      return shared !== undefined && shared.abandoned === undefined;
    },
    get size() {
      return table.size;
    },
  };
}
