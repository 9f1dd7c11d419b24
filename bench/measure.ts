import type { BenchCase } from "./bench-case.js";

/** Median nanoseconds per input of each case. */
export type Medians = Map<string, number>;

/**
 * Runs every case over the whole corpus once per round, in a rotating order, so that drift on a
 * noisy machine (frequency scaling, another process) spreads over all cases instead of favouring
 * whichever ran first; reports each case's median over the rounds, in ns per input.
 *
 * Given a `cpu` map, it also fills it with each case's median process CPU time (user + system,
 * all of the process's threads, so a case's concurrent garbage collection is charged to it) per
 * input. On a machine other jobs load, wall time measures the queue for a core: in one locked run
 * at load 7-9 classify read 1.81× and 2.72× the bare parse by wall time where its CPU time was
 * ~0.8× and ~1.2× in the minutes before.
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
  cpu?: Medians,
): Medians {
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const cpuSamples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  let sink = 0;
  for (let round = 0; round < warmup + rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length] as BenchCase;
      const cpuStart = cpu === undefined ? undefined : process.cpuUsage();
      const start = process.hrtime.bigint();
      for (const u of corpus) if (c.run(u) !== undefined) sink++;
      const ns = Number(process.hrtime.bigint() - start) / corpus.length;
      if (round >= warmup) samples.get(c.name)?.push(ns);
      if (cpuStart !== undefined && round >= warmup) {
        const used = process.cpuUsage(cpuStart);
        cpuSamples.get(c.name)?.push(((used.user + used.system) * 1000) / corpus.length);
      }
    }
  }
  if (sink < 0) console.log(sink); // keeps the results alive
  if (cpu !== undefined) for (const [name, m] of mediansOf(cpuSamples)) cpu.set(name, m);
  return mediansOf(samples);
}

function mediansOf(samples: Map<string, number[]>): Medians {
  const medians: Medians = new Map();
  for (const [name, xs] of samples) {
    xs.sort((a, b) => a - b);
    medians.set(name, xs[Math.floor(xs.length / 2)] ?? Number.NaN);
  }
  return medians;
}
