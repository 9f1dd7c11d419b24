/**
 * A request's deadline: a signal that aborts `ms` after the call or when the request's own signal
 * does (the client went away), and `clear` to call when the answer is done.
 *
 * Not `AbortSignal.any([request.signal, AbortSignal.timeout(ms)])`: on Node 20.20 a composite holds
 * its sources weakly, and once resolveMany wraps it in a composite of its own, a `gc()` leaves the
 * timeout unreferenced and it never fires (checked with --expose-gc); in the service a 300 ms
 * deadline never fired and the batch ran into the client's 15 s read timeout. A plain timer and
 * controller are strong references.
 *
 * @example
 * ```ts
 * const { signal, clear } = requestDeadline(request.signal, 60_000);
 * try { await work(signal); } finally { clear(); }
 * ```
 */
export function requestDeadline(
  requestSignal: AbortSignal,
  ms: number,
): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(requestSignal.reason);
  const timer = setTimeout(() => {
    controller.abort(new DOMException(`the request's deadline of ${ms} ms passed`, "TimeoutError"));
  }, ms);
  // The deadline alone never keeps a process alive (a draining service exits when work is done).
  timer.unref();
  if (requestSignal.aborted) onAbort();
  else requestSignal.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      requestSignal.removeEventListener("abort", onAbort);
    },
  };
}
