import type { BenchCase } from "./bench-case.js";

/** Median nanoseconds per input of each case. */
export type Medians = Map<string, number>;

/**
 * Runs every case over the whole corpus once per round, in a rotating order, so that drift on a
 * noisy machine (frequency scaling, another process) spreads over all cases instead of favouring
 * whichever ran first; reports each case's median over the rounds, in ns per input.
 *
 * @example
 * ```ts
 * const medians = measureInterleaved(normalizeCases, generateCorpus(50_000), 15);
 * ```
 */
export function measureInterleaved(
  cases: readonly BenchCase[],
  corpus: readonly string[],
  rounds: number,
  warmup = 2,
): Medians {
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  let sink = 0;
  for (let round = 0; round < warmup + rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length] as BenchCase;
      const start = process.hrtime.bigint();
      for (const u of corpus) if (c.run(u) !== undefined) sink++;
      const ns = Number(process.hrtime.bigint() - start) / corpus.length;
      if (round >= warmup) samples.get(c.name)?.push(ns);
    }
  }
  if (sink < 0) console.log(sink); // keeps the results alive
  const medians: Medians = new Map();
  for (const [name, xs] of samples) {
    xs.sort((a, b) => a - b);
    medians.set(name, xs[Math.floor(xs.length / 2)] ?? Number.NaN);
  }
  return medians;
}
