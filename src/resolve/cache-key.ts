import { createHash } from "node:crypto";
import { canonicalWith } from "../pipeline/normalize.js";
import { parseInput } from "../url/parse-input.js";
import type { ResolvedClientOptions } from "./client-options.js";

/**
 * Version of what a key stands for. Raise it when a resolution's outcome for the same input and
 * options changes meaning (the hop loop, the error mapping, the Resolution fields), so a cache
 * shared with older canonurl processes never serves their answers.
 */
export const CACHE_KEY_VERSION = 1;

/**
 * The digest of every option that can change the outcome of a resolution. Timeouts are left out:
 * they only turn a success into a transient failure, which is not cached by default. A resolver
 * or transport function cannot be hashed: two clients with different DNS stubs sharing one store
 * share answers (say so in the docs). Rules count by name: a rule's name is versioned
 * ("youtube-v1"), and the name must change when its behaviour does.
 */
function optionsDigest(options: ResolvedClientOptions): string {
  const n = options.normalize;
  const material = {
    preset: n.preset,
    stripTracking: n.stripTracking,
    trackingParams: n.trackingParams,
    keepParams: n.keepParams,
    sortParams: n.sortParams,
    trailingSlash: n.trailingSlash,
    stripFragment: n.stripFragment,
    rules: n.rules.map((rule) => rule.name),
    defaultScheme: n.defaultScheme,
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
