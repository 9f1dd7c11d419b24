import type { CacheEntry } from "./cache.js";

/** How long after `freshUntil` a store keeps an entry by default: api.md's default staleIfErrorMs. */
export const DEFAULT_RETAIN_STALE_MS = 86_400_000;

/** No store keeps an entry longer than this, whatever its freshUntil says (bounded growth). */
export const MAX_RETENTION_MS = 366 * 86_400_000;

/** Options every backend takes. */
export interface StoreOptions {
  /**
   * How long an entry stays retrievable after its `freshUntil`, so that a caller may still serve
   * it stale when a fresh attempt fails. Set it at least as long as the client's staleIfErrorMs.
   * @default 86400000 (24 h)
   */
  retainStaleMs?: number;
}

/**
 * Throws a TypeError naming the first option that is unknown or of the wrong type. `checks` maps
 * each allowed name to its test; `what` names the factory in the message.
 */
export function checkOptions(
  what: string,
  given: unknown,
  checks: Record<string, (v: unknown) => boolean>,
  expected: Record<string, string>,
): void {
  if (given === undefined) return;
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new TypeError(`${what}: options must be an object`);
  }
  for (const [name, value] of Object.entries(given)) {
    const check = checks[name];
    if (check === undefined) throw new TypeError(`${what}: unknown option "${name}"`);
    if (value !== undefined && !check(value)) {
      throw new TypeError(`${what}: option "${name}" must be ${expected[name]}`);
    }
  }
}

/** A test for a whole number in [min, max]. */
export function isIntegerIn(min: number, max: number): (v: unknown) => boolean {
  return (v) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
}

/**
 * Milliseconds from `now` until a store may drop the entry: `freshUntil + retainStaleMs`, at most
 * {@link MAX_RETENTION_MS}. Zero or less means the entry is already past keeping.
 *
 * @example
 * ```ts
 * retentionMs({ ...entry, freshUntil: now + 1000 }, 500, now); // 1500
 * ```
 */
export function retentionMs(entry: CacheEntry, retainStaleMs: number, now: number): number {
  return Math.min(Math.floor(entry.freshUntil + retainStaleMs - now), MAX_RETENTION_MS);
}
