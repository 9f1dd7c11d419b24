// The backends' one door to the Cache contract, which lives with the resolver that calls it
// (src/resolve/cache.ts): imports point one way, from cache/ to resolve/, never back.
export type { Cache, CacheEntry, PeekableCache } from "../resolve/cache.js";
export { peekEntry } from "../resolve/cache.js";
