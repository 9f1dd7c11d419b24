// The backends' one door to the Cache contract, which lives with the resolver that calls it
// (src/resolve/cache.ts): imports point one way, from cache/ to resolve/, never back.
export type { Cache, CacheEntry } from "../resolve/cache.js";
