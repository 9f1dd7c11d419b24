/**
 * The ceilings `npm run bench` holds the pure paths to, as a multiple of a bare
 * `new URL(u).href` in the same run (issue 24): identity normalization at most 3× (the target is
 * 2.5×; the margin absorbs a noisy run), classify at most 1× (target 0.9×). Past either, the bench
 * prints a warning line and exits non-zero, so a change that slows a hot path shows in review.
 */
export const REGRESSION_LIMITS = { "normalize identity": 3, "classify()": 1 } as const;

/** One ratio the guard checked. */
export interface GuardFinding {
  case: keyof typeof REGRESSION_LIMITS;
  workload: string;
  ratio: number;
  limit: number;
}

const findings: GuardFinding[] = [];

/**
 * Checks `ratio` (the case's median over the bare parse's, in one run) against its ceiling.
 * Prints a `WARNING` line and marks the process to exit with code 1 when it is over (or not a
 * number: a ratio the bench could not measure is not a pass). Returns whether it held.
 *
 * @example
 * ```ts
 * guardRatio("classify()", "seeded corpus", 0.8); // true
 * ```
 */
export function guardRatio(name: keyof typeof REGRESSION_LIMITS, workload: string, ratio: number): boolean {
  const limit = REGRESSION_LIMITS[name];
  findings.push({ case: name, workload, ratio, limit });
  if (ratio <= limit) return true;
  console.log(
    `WARNING: regression guard: ${name} is ${ratio.toFixed(2)}× the bare new URL(u).href on the ${workload}, over the ceiling of ${limit}× (bench/regression-guard.ts)`,
  );
  process.exitCode = 1;
  return false;
}

/**
 * Every ratio checked so far in this run, for the closing summary.
 *
 * @example
 * ```ts
 * guardFindings().filter((f) => f.ratio > f.limit).length; // 0 on a healthy run
 * ```
 */
export function guardFindings(): readonly GuardFinding[] {
  return findings;
}
