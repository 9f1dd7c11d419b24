// The callbacks following each signal. A batch hands one signal to every resolution in flight, and
// every request of a resolution shares its deadline's signal: one listener per signal fanning out to
// a Set keeps subscribing O(1) and below Node's listener-leak warning, where a listener each would
// trip it at 11 and costs an EventTarget add and remove per await. AbortSignal.any is no better on
// Node 20: a second signal, weak references and a finalization entry per call (measured in
// bench/resolve.ts). The WeakMap lets an idle signal and its Set be collected together.
const followers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` once when `signal` aborts (at once if it already has); the returned function
 * unsubscribes. Cheap enough to call per request.
 *
 * @example
 * ```ts
 * const stop = followAbort(signal, () => controller.abort(signal.reason));
 * try { await work(); } finally { stop(); }
 * ```
 */
export function followAbort(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return () => {};
  }
  let members = followers.get(signal);
  if (members === undefined) {
    const set = new Set<() => void>();
    members = set;
    followers.set(signal, set);
    signal.addEventListener("abort", () => fanOut(signal, set), { once: true });
  }
  const set = members;
  set.add(onAbort);
  return () => {
    set.delete(onAbort);
  };
}

/**
 * Makes the caller the fan-out of a signal it aborts itself (a deadline's): {@link followAbort}
 * registers followers as usual, but no abort listener is added to the signal; the owner calls the
 * returned function right after aborting it. A fresh signal per operation then never pays for an
 * EventTarget listener (on Node 20 an AbortSignal is a prototype-swapped EventTarget, and adding
 * a listener to one cost as much as the rest of the fan-out).
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const fanOut = ownFanout(controller.signal);
 * const abort = (reason: unknown) => { controller.abort(reason); fanOut(); };
 * ```
 */
export function ownFanout(signal: AbortSignal): () => void {
  const set = new Set<() => void>();
  followers.set(signal, set);
  return () => fanOut(signal, set);
}

// Runs the followers once: the first call unregisters the set, so a second finds it gone.
function fanOut(signal: AbortSignal, set: Set<() => void>): void {
  if (followers.get(signal) !== set) return;
  followers.delete(signal);
  for (const member of set) member();
}
