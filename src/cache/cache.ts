import type { Resolution } from "../resolve/types.js";

/**
 * A store of resolved URLs keyed by the normalized input. Backends: `memoryCache`, `sqliteCache`
 * (embedded, persistent), `redisCache` (shared between workers). Every method is async so that all
 * backends share one contract.
 *
 * @example
 * ```ts
 * const cache: Cache = {
 *   store: new Map<string, Resolution>(),
 *   async get(key) { return this.store.get(key); },
 *   async set(key, value) { this.store.set(key, value); },
 * } as Cache & { store: Map<string, Resolution> };
 * ```
 */
export interface Cache {
  get(key: string): Promise<Resolution | undefined>;
  set(key: string, value: Resolution, ttlMs: number): Promise<void>;
  close?(): Promise<void>;
}
