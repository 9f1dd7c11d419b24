/**
 * mulberry32: a small seeded generator of numbers in [0, 1), so that a test's or a bench's "random"
 * choices (kill points, shuffles, corpora) are the same on every run.
 *
 * @example
 * ```ts
 * const random = seeded(7);
 * random(); // the same first number on every run
 * ```
 */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Shuffles `list` in place (Fisher–Yates) with the numbers of `random`, and returns it.
 *
 * @example
 * ```ts
 * shuffled(["a", "b", "c"], seeded(13)); // the same order on every run
 * ```
 */
export function shuffled<T>(list: T[], random: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}
