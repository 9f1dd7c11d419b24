import type { CanonError } from "../errors/canon-error.js";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import type { Cache } from "./cache.js";
import type { CachePolicyOptions } from "./cache-policy.js";
import type { Transport } from "./http/transport.js";

/**
 * Options of {@link createClient}, {@link canonicalize} and {@link resolve}: every normalize option
 * plus the network limits and the security policy.
 *
 * @example
 * ```ts
 * const client = createClient({ maxHops: 5, totalTimeoutMs: 10_000 });
 * ```
 */
export interface ClientOptions extends NormalizeOptions {
  /** Redirects and followed canonical links share this budget. @default 10 */
  maxHops?: number;
  /** One deadline across every hop and DNS lookup. @default 30000 */
  totalTimeoutMs?: number;
  /** TCP and TLS setup of one connection. @default 8000 */
  connectTimeoutMs?: number;
  /** The wait for a response head, and every gap between body chunks. @default 15000 */
  readTimeoutMs?: number;
  /** How long a request head may wait unwritten on the socket (a peer that does not read). @default 8000 */
  writeTimeoutMs?: number;
  /** Largest HTML head read from a body. @default 1048576 */
  maxBodyBytes?: number;
  /** @default [80, 443] */
  allowedPorts?: number[];
  /** Relax the address policy (userinfo and port policies still hold; the connection is still pinned). @default false */
  allowPrivateNetworks?: boolean;
  /** CIDRs let through despite the address policy, e.g. `["127.0.0.1/32"]`. @default [] */
  allowedNetworks?: string[];
  /** Follow https → http redirects. @default false */
  allowDowngrade?: boolean;
  /** Which declared canonical links to follow. @default "any" */
  canonicalLinks?: "any" | "same-site" | "off";
  /** Request headers (replace the defaults). */
  headers?: Record<string, string>;
  /** Extra trusted CA certificates (PEM). TLS verification cannot be turned off. */
  ca?: string | string[];
  /** DNS answers (A and AAAA) for a host name. @default the system resolver */
  resolver?: (hostname: string, signal: AbortSignal) => Promise<string[]>;
  /** Performs one request to an already validated address. @default a pinned undici transport */
  transport?: Transport;
  /** Receives debug messages; nothing is logged by default. */
  logger?: { debug(message: string, data?: object): void };
  hooks?: {
    onHop?(hop: Hop): void;
    onRuleApplied?(rule: string, before: string, after: string): void;
    onComplete?(trace: Trace): void;
  };
  /** Where resolutions are remembered (memoryCache, sqliteCache, redisCache or your own). @default none */
  cache?: Cache;
  /** How long what the cache holds stays fresh; see docs/cache.md. */
  cachePolicy?: CachePolicyOptions;
  /** Politeness: requests in flight to one host name at once, per client; more wait their turn. @default 6 */
  hostConcurrency?: number;
  /**
   * A 429 or 503 whose `Retry-After` asks for at most this wait (and fits the deadline) is retried
   * once after it; otherwise it fails with `http-status`, naming the Retry-After. @default 5000
   */
  maxRetryAfterMs?: number;
}

/** One request of a resolution. */
export interface Hop {
  url: string;
  via: "initial" | "redirect" | "canonical-link";
  method: "HEAD" | "GET";
  status: number | null;
}

/** What one resolution did, for `hooks.onComplete`. */
export interface Trace {
  input: string;
  afterRedirects: string;
  afterGeneric: string;
  afterDomain: string;
  final: string;
  chain: Hop[];
  ruleApplied: string | null;
  droppedHints: { url: string; reason: string }[];
  durationMs: number;
}

/** The result of {@link resolve}. */
export interface Resolution {
  /** The canonical URL (normalized, rules applied). */
  url: string;
  original: string;
  source: "initial" | "redirect" | "canonical-link";
  chain: Hop[];
  /** Status of the response that confirmed it. */
  status: number;
  headers: Record<string, string>;
  ruleApplied: string | null;
  paramsStripped: string[];
  /** `false` when a declared canonical could not be fetched and is returned unconfirmed. */
  verified: boolean;
  durationMs: number;
  /** Served from the cache instead of the network. */
  cached: boolean;
  /** Served from the cache after its freshness ended, because a fresh attempt failed transiently. */
  stale: boolean;
}

/** One result of `resolveMany`: failures are values, never thrown. */
export type Outcome = { index: number; input: string } & (
  | { ok: true; result: Resolution }
  | { ok: false; error: CanonError }
);
