const DEFAULT_CONCURRENCY = 8;

/**
 * Validates `resolveMany`'s `concurrency` (default 8): an integer from 1 to 10000, else a
 * `TypeError` naming it. Shared by the client and its lazy shell, so a bad value throws at the
 * call, before any engine loads.
 *
 * @example
 * ```ts
 * resolveConcurrency(undefined); // 8
 * resolveConcurrency(0); // throws TypeError
 * ```
 */
export function resolveConcurrency(concurrency: number | undefined): number {
  const value = concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > 10_000) {
    throw new TypeError(`canonurl: option "concurrency" must be an integer from 1 to 10000, got ${value}`);
  }
  return value;
}
