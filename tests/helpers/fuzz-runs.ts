/**
 * The run count of a property test: `fast` (the seeded subset `npm test` runs) unless `FUZZ_RUNS`
 * is set, as `npm run fuzz` sets it (1,000,000 by default). One variable for every property file,
 * so one command turns them all long.
 *
 * @example
 * ```ts
 * fc.assert(property, { seed: 42, numRuns: fuzzRuns(3000) });
 * ```
 */
export function fuzzRuns(fast: number): number {
  const raw = process.env.FUZZ_RUNS;
  if (raw === undefined || raw === "") return fast;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`FUZZ_RUNS must be a positive integer, got ${raw}`);
  return n;
}

/** Whether the long fuzz mode is on (`FUZZ_RUNS` set). */
export const FUZZING = (process.env.FUZZ_RUNS ?? "") !== "";
