/**
 * Bounds operations in time with one shared timer. A cache lookup is bounded so that a hung store
 * cannot hold a resolution, yet a hit takes well under a microsecond of work: a timer armed and
 * cleared per lookup (setTimeout, unref, clearTimeout, Promise.race) cost more than the lookup
 * (measured in bench/cache.ts). Every bound has the same length, so the operations' deadlines fall
 * in the order they started: one timer, armed for the oldest, is enough.
 */
export interface OpTimer {
  /**
   * Settles as `pending` does, or with `late()` when `pending` has not settled `timeoutMs` after
   * this call (its own later result is then dropped). `now`: performance.now() at the call, when
   * the caller has just read it.
   */
  bound<T>(pending: Promise<T>, late: () => T, now?: number): Promise<T>;
  /** Operations bounded and not settled yet. */
  readonly size: number;
}

interface Waiting {
  due: number;
  late: () => void;
}

/**
 * Creates an {@link OpTimer} whose bounds are `timeoutMs` long.
 *
 * @example
 * ```ts
 * const timer = createOpTimer(1_000);
 * const entry = await timer.bound(cache.get(key), () => undefined); // undefined after 1 s at most
 * ```
 */
export function createOpTimer(timeoutMs: number): OpTimer {
  // Insertion order is deadline order: every bound has the same length.
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let timer: NodeJS.Timeout | undefined;

  function arm(due: number): void {
    timer = setTimeout(fire, Math.max(1, Math.ceil(due - performance.now())));
    // A pending cache operation alone must not keep the process alive.
    timer.unref?.();
  }

  function fire(): void {
    timer = undefined;
    const now = performance.now();
    for (const [id, w] of waiting) {
      if (w.due > now) {
        arm(w.due);
        return;
      }
      waiting.delete(id);
      w.late();
    }
  }

  return {
    bound<T>(pending: Promise<T>, late: () => T, now = performance.now()): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const id = next++;
        const due = now + timeoutMs;
        waiting.set(id, {
          due,
          late: () => {
            try {
              resolve(late());
            } catch (error) {
              reject(error);
            }
          },
        });
        if (timer === undefined) arm(due);
        pending.then(
          (value) => {
            waiting.delete(id);
            resolve(value);
          },
          (error: unknown) => {
            waiting.delete(id);
            reject(error);
          },
        );
      });
    },
    get size() {
      return waiting.size;
    },
  };
}
