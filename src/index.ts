// The Node entry, `canonurl`: re-exports only, no logic. Everything pure comes from ./core.js, so
// the two entries cannot drift apart; this file adds what needs Node.
//
// Cold start: importing this module loads neither undici, htmlparser2 nor tldts (the resolver's
// engine) nor yaml (loadRules). The resolver exports are shims that validate options synchronously
// and import the engine on first use; loadRules loads yaml on its first call.
// tests/package/lazy-load.test.ts pins what an import loads.

export { memoryCache } from "./cache/memory-cache.js";
export { redisCache } from "./cache/redis-cache.js";
export { type SqliteCacheOptions, sqliteCache } from "./cache/sqlite-cache.js";
export * from "./core.js";
export { loadRules } from "./node/load-rules.js";
export type { Cache, CacheEntry } from "./resolve/cache.js";
export { CACHE_BYPASS_EVENT } from "./resolve/cache-bypass-event.js";
export type { CachePolicyOptions } from "./resolve/cache-policy.js";
export type { Client } from "./resolve/client.js";
export type { PinnedTransport, PinnedTransportOptions } from "./resolve/http/pinned-transport.js";
export type { Transport, TransportRequest, TransportResponse } from "./resolve/http/transport.js";
export { createClient, createPinnedTransport } from "./resolve/lazy-client.js";
export { canonicalize, resolve } from "./resolve/one-shot.js";
export type { ClientOptions, Hop, Outcome, Resolution, Trace } from "./resolve/types.js";
export { clearUrlsLayer, clearUrlsRules, clearUrlsSnapshotPath } from "./rules-node/clear-urls-rules.js";
