/**
 * One contender of a benchmark: `run` processes one input. `bench/run.ts` interleaves every case of a
 * group over the same corpus in one process and reports medians and ratios; cases never time
 * themselves.
 */
export interface BenchCase {
  name: string;
  run(input: string): unknown;
}
