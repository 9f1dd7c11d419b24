import { createHash } from "node:crypto";
import { keyVersion } from "../pipeline/key-version.js";
import { canonicalWith } from "../pipeline/normalize.js";
import { parseInput } from "../url/parse-input.js";
import type { ResolvedClientOptions } from "./client-options.js";
import type { ClientOptions } from "./types.js";

/**
 * Version of what a key stands for. Raise it when a resolution's outcome for the same input and
 * options changes meaning (the hop loop, the error mapping, the Resolution fields), so a cache
 * shared with older canonurl processes never serves their answers.
 */
export const CACHE_KEY_VERSION = 1;

/**
 * Whether each client option is part of the cache key, and why not when it is not (issue 23).
 * Every key of `ClientOptions` must have a row: the `satisfies` below fails the build when an
 * option is added without a decision, and tests/resolve/cache-key-options.test.ts checks the rows
 * against the options the client accepts at run time.
 *
 * @example
 * ```ts
 * CACHE_KEY_DECISIONS.resolver; // "key"
 * ```
 */
export const CACHE_KEY_DECISIONS = {
  preset: "key",
  stripTracking: "key",
  trackingParams: "key",
  extraTrackingParams: "key", // folded into the resolved trackingParams
  keepParams: "key",
  stripUserinfo: "key",
  sortParams: "key",
  trailingSlash: "key",
  stripFragment: "key",
  rules: "key", // by name: a rule's name is versioned ("youtube-v1")
  defaultScheme: "key",
  // Issue 22's options: each changes the URL a resolution ends on.
  forceHttps: "key",
  stripWWW: "key",
  removeDirectoryIndex: "key",
  removeSessionIds: "key",
  trackingLayers: "key", // by name, as rules are
  maxHops: "key",
  maxBodyBytes: "key",
  allowedPorts: "key",
  allowPrivateNetworks: "key",
  allowedNetworks: "key",
  allowDowngrade: "key",
  canonicalLinks: "key",
  headers: "key", // servers answer by User-Agent, Accept, Accept-Language, cookies
  ca: "key",
  // A fixed answer (--resolve HOST:ADDRESS) names another server: a run pinned to a staging
  // address must not serve production runs. Keyed by the resolver's cacheIdentity (see
  // resolverIdentity); a function without one cannot be hashed and counts as "custom".
  resolver: "key",
  totalTimeoutMs: "not: only turns a success into a transient failure, which is not cached by default",
  connectTimeoutMs: "not: as totalTimeoutMs",
  readTimeoutMs: "not: as totalTimeoutMs",
  writeTimeoutMs: "not: as totalTimeoutMs",
  maxRetryAfterMs: "not: only turns a transient failure (429/503) into a later attempt",
  hostConcurrency: "not: pacing, never the answer",
  transport: "not: a function cannot be hashed; clients with different transports must not share a store",
  logger: "not: an observer",
  hooks: "not: observers",
  cache: "not: the store itself",
  cachePolicy: "not: how long an answer lives, not what it is",
} as const satisfies Record<keyof ClientOptions, "key" | `not: ${string}`>;

/**
 * What a resolver contributes to the cache key: `null` for the system resolver, the function's
 * own `cacheIdentity` string when it has one (createFixedResolver sets it from its table), else
 * `"custom"`.
 *
 * @example
 * ```ts
 * resolverIdentity(Object.assign(async () => ["127.0.0.1"], { cacheIdentity: "fixed:a.test=127.0.0.1" })); // "fixed:a.test=127.0.0.1"
 * ```
 */
export function resolverIdentity(resolver: ResolvedClientOptions["resolver"]): string | null {
  if (resolver === null) return null;
  const identity = (resolver as { cacheIdentity?: unknown }).cacheIdentity;
  return typeof identity === "string" ? identity : "custom";
}

/**
 * The digest of every option that can change the outcome of a resolution: the rows of
 * {@link CACHE_KEY_DECISIONS} marked "key".
 */
function optionsDigest(options: ResolvedClientOptions): string {
  const n = options.normalize;
  const material = {
    preset: n.preset,
    stripUserinfo: n.stripUserinfo,
    stripTracking: n.stripTracking,
    trackingParams: n.trackingParams,
    keepParams: n.keepParams,
    sortParams: n.sortParams,
    trailingSlash: n.trailingSlash,
    stripFragment: n.stripFragment,
    rules: n.rules.map((rule) => rule.name),
    defaultScheme: n.defaultScheme,
    forceHttps: n.forceHttps,
    stripWWW: n.stripWWW,
    removeDirectoryIndex: n.removeDirectoryIndex,
    removeSessionIds: n.removeSessionIds,
    trackingLayers: n.trackingLayers.map((layer) => layer.name),
    // The built-in data (tracking tiers, host-scoped names) and the generic pass: a new keyVersion
    // changes default outputs that no option above names, so it starts a new key space.
    keyVersion,
    maxHops: options.maxHops,
    maxBodyBytes: options.maxBodyBytes,
    allowedPorts: options.allowedPorts,
    allowPrivateNetworks: options.allowPrivateNetworks,
    allowedNetworks: options.allowedNetworks,
    allowDowngrade: options.allowDowngrade,
    canonicalLinks: options.canonicalLinks,
    // Servers answer by request headers (User-Agent, Accept, Accept-Language, cookies).
    headers: Object.entries(options.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ca: options.ca,
    resolver: resolverIdentity(options.resolver),
  };
  return createHash("sha256").update(JSON.stringify(material)).digest("hex").slice(0, 16);
}

/** Computes cache keys for one client's options. */
export interface CacheKeyer {
  /**
   * The key of an input: `v<version>:<options digest>:<first hop URL>`, where the first hop URL is
   * the input trimmed, given the default scheme and rfc3986-normalized, as the resolver fetches
   * it (so " HTTP://Bit.test/x" and "http://bit.test/x" share one entry). `undefined` for input
   * that does not parse or carries credentials: it fails before any request, so there is
   * nothing to remember.
   */
  keyOf(input: string): string | undefined;
}

/**
 * A {@link CacheKeyer} for a client: the options digest is computed once, here.
 *
 * @example
 * ```ts
 * createCacheKeyer(resolveClientOptions()).keyOf(" HTTP://Bit.test/x"); // "v1:3f0c…:http://bit.test/x"
 * ```
 */
export function createCacheKeyer(options: ResolvedClientOptions): CacheKeyer {
  const prefix = `v${CACHE_KEY_VERSION}:${optionsDigest(options)}:`;
  return {
    keyOf(input) {
      if (typeof input !== "string") return undefined;
      try {
        const { url } = parseInput(input.trim(), options.hopNormalize.defaultScheme);
        // Credentials never reach a store (a key is readable in redis-cli); such input fails
        // before any request (userinfo), so there is nothing to remember either.
        if (url.username !== "" || url.password !== "") return undefined;
        return prefix + canonicalWith(url, options.hopNormalize);
      } catch {
        return undefined;
      }
    },
  };
}
