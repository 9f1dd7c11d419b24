// Public entry: re-exports only, no logic.
export type { Cache } from "./cache/cache.js";
export * from "./errors/index.js";
export type { NormalizeOptions } from "./pipeline/normalize-options.js";
export { type Client, createClient } from "./resolve/client.js";
export { canonicalize, resolve } from "./resolve/one-shot.js";
export type { Transport, TransportRequest, TransportResponse } from "./resolve/transport.js";
export type { ClientOptions, Hop, Outcome, Resolution, Trace } from "./resolve/types.js";
export type { DomainRule } from "./rules/domain-rule.js";
