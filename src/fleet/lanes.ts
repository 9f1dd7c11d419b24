// The lanes of one worker: how many resolutions it has in flight across all its chunks.

/**
 * At most `size` resolutions in flight across every chunk one worker runs, first come first
 * served. `alone` takes every lane: nothing else of this process is in flight meanwhile.
 *
 * @example
 * ```ts
 * const lane = lanes(16);
 * await lane(() => client.resolve(url)); // in one of 16 lanes
 * await lane(() => client.resolve(suspect), true); // alone
 * ```
 */
export function lanes(size: number) {
  let free = size;
  const waiting: { need: number; go: () => void }[] = [];
  const wake = (): void => {
    for (;;) {
      const head = waiting[0];
      if (head === undefined || head.need > free) return;
      waiting.shift();
      free -= head.need;
      head.go();
    }
  };
  return async <T>(work: () => Promise<T>, alone = false): Promise<T> => {
    const need = alone ? size : 1;
    if (waiting.length === 0 && free >= need) free -= need;
    else await new Promise<void>((go) => waiting.push({ need, go }));
    try {
      return await work();
    } finally {
      free += need;
      wake();
    }
  };
}

/**
 * What {@link lanes} returns: runs `work` in a lane (or, `alone`, in all of them).
 *
 * @example
 * ```ts
 * const lane: Lanes = lanes(8);
 * ```
 */
export type Lanes = ReturnType<typeof lanes>;
