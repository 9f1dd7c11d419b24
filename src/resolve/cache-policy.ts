import type { CanonError } from "../errors/canon-error.js";

/**
 * How long the client keeps what it learned (the `cachePolicy` option). Every field optional.
 *
 * @example
 * ```ts
 * createClient({ cache: memoryCache(), cachePolicy: { minTtlMs: 60_000, transientTtlMs: 5_000 } });
 * ```
 */
export interface CachePolicyOptions {
  /** Floor for a success's lifetime. @default 3600000 (1 h) */
  minTtlMs?: number;
  /** Ceiling for a success's lifetime. @default 2592000000 (30 d) */
  maxTtlMs?: number;
  /** Lifetime of a deterministic failure (security, invalid URL, loops, 404/410). @default 3600000 */
  errorTtlMs?: number;
  /** Lifetime of a transient failure (timeout, connection, TLS, 5xx, 429, other 4xx); 0 = never cached. @default 0 */
  transientTtlMs?: number;
  /** How long after expiry a success is still served (stale) when a fresh attempt fails transiently. @default 86400000 */
  staleIfErrorMs?: number;
}

/** {@link CachePolicyOptions} with every default filled, frozen. Internal. */
export type ResolvedCachePolicy = Readonly<Required<CachePolicyOptions>>;

/** The defaults of every field. */
export const DEFAULT_CACHE_POLICY: ResolvedCachePolicy = Object.freeze({
  minTtlMs: 3_600_000,
  maxTtlMs: 2_592_000_000,
  errorTtlMs: 3_600_000,
  transientTtlMs: 0,
  staleIfErrorMs: 86_400_000,
});

const FIELDS = Object.keys(DEFAULT_CACHE_POLICY) as (keyof ResolvedCachePolicy)[];
// A year and a day: far past any useful lifetime, and epoch ms plus it stays a safe integer.
const MAX_MS = 366 * 86_400_000;

/**
 * Validates the `cachePolicy` option (an unknown field or a value that is not an integer in
 * [0, 366 days] throws a TypeError naming it; `minTtlMs` may not exceed `maxTtlMs`) and fills the
 * defaults.
 *
 * @example
 * ```ts
 * resolveCachePolicy({ minTtlMs: 0 }).maxTtlMs; // 2592000000
 * resolveCachePolicy({ minTTL: 1 });            // TypeError: unknown option "cachePolicy.minTTL"
 * ```
 */
export function resolveCachePolicy(value: unknown): ResolvedCachePolicy {
  if (value === undefined) return DEFAULT_CACHE_POLICY;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`canonurl: option "cachePolicy" must be an object, got ${JSON.stringify(value)}`);
  }
  const out: Record<string, number> = { ...DEFAULT_CACHE_POLICY };
  for (const [name, v] of Object.entries(value)) {
    if (!(FIELDS as string[]).includes(name))
      throw new TypeError(`canonurl: unknown option "cachePolicy.${name}"`);
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_MS) {
      throw new TypeError(
        `canonurl: option "cachePolicy.${name}" must be an integer from 0 to ${MAX_MS}, got ${JSON.stringify(v)}`,
      );
    }
    out[name] = v;
  }
  if ((out.minTtlMs as number) > (out.maxTtlMs as number)) {
    throw new TypeError(
      `canonurl: option "cachePolicy.minTtlMs" (${out.minTtlMs}) must not exceed "cachePolicy.maxTtlMs" (${out.maxTtlMs})`,
    );
  }
  return Object.freeze(out) as ResolvedCachePolicy;
}

// Failures the same request would meet again: the input, the addresses and ports, the redirect
// graph and a resource that is gone. DNS answers or a site's redirects may change, which is what
// errorTtlMs bounds.
const DETERMINISTIC_CODES: ReadonlySet<string> = new Set([
  "invalid-url",
  "unsupported-scheme",
  "blocked-address",
  "blocked-port",
  "userinfo",
  "scheme-downgrade",
  "redirect-loop",
  "too-many-hops",
  "invalid-location",
]);
const GONE_STATUSES: ReadonlySet<number> = new Set([404, 410]);

/**
 * Whether a failure is deterministic (cached for errorTtlMs) rather than transient (timeout,
 * connection-failed, tls, response-too-large, a caller's abort, 5xx, 429 and every other status,
 * cached for transientTtlMs, by default never). An `http-status` counts as deterministic only for
 * 404 and 410: a 403 may be a bot wall that lifts, a 400 a server's passing bug.
 *
 * @example
 * ```ts
 * isDeterministicFailure(new RedirectError("redirect-loop", "loop")); // true
 * isDeterministicFailure(new FetchError("http-status", "503", { status: 503 })); // false
 * ```
 */
export function isDeterministicFailure(error: Pick<CanonError, "code"> & { status?: number }): boolean {
  if (DETERMINISTIC_CODES.has(error.code)) return true;
  if (error.code === "http-status") return GONE_STATUSES.has(statusOf(error));
  return false;
}

/** The status of an `http-status` error: its `status` field, else the first 3-digit number of its message. */
export function statusOf(error: { status?: number; message?: string }): number {
  if (typeof error.status === "number") return error.status;
  const match = /\b([1-5]\d\d)\b/.exec(error.message ?? "");
  return match === null ? 0 : Number(match[1]);
}

/**
 * How long a failure is kept: errorTtlMs for a deterministic one, transientTtlMs otherwise.
 *
 * @example
 * ```ts
 * failureTtlMs(new TimeoutError("timeout", "t"), DEFAULT_CACHE_POLICY); // 0: never cached
 * ```
 */
export function failureTtlMs(
  error: Pick<CanonError, "code"> & { status?: number },
  policy: ResolvedCachePolicy,
): number {
  return isDeterministicFailure(error) ? policy.errorTtlMs : policy.transientTtlMs;
}
