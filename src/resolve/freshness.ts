import CachePolicy from "http-cache-semantics";
import type { ResolvedCachePolicy } from "./cache-policy.js";

/** One response that decided a resolution: a redirect it followed or a 2xx that confirmed it. */
export interface DecidingResponse {
  url: string;
  method: "HEAD" | "GET";
  status: number;
  headers: Record<string, string | string[]>;
}

/**
 * RFC 9111 §4.2.1 freshness lifetime still ahead of one response, in ms (Cache-Control max-age,
 * Expires against Date, heuristic freshness from Last-Modified for the heuristically cacheable
 * statuses such as 301 and 308, minus Age), through http-cache-semantics as a private cache: the
 * resolution is canonurl's own, derived from responses to requests it made. `no-store`,
 * `no-cache`, an uncacheable status without explicit freshness and an Expires in the past are 0.
 *
 * @example
 * ```ts
 * freshnessMs({ url: "http://a.test/", method: "HEAD", status: 301, headers: { "cache-control": "max-age=60" } }, {}); // 60000
 * ```
 */
export function freshnessMs(
  response: DecidingResponse,
  requestHeaders: Readonly<Record<string, string>>,
): number {
  const policy = new CachePolicy(
    { url: response.url, method: response.method, headers: { ...requestHeaders } },
    { status: response.status, headers: response.headers },
    { shared: false },
  );
  // maxAge() - age(), not timeToLive(): that one adds stale-while-revalidate and stale-if-error,
  // which let a cache serve a response it knows is stale; canonurl has its own staleIfErrorMs.
  return Math.max(0, (policy.maxAge() - policy.age()) * 1000);
}

/**
 * Lifetime of a success: the shortest freshness of the responses that decided it (a redirect
 * that may change soon makes the whole resolution short-lived), clamped to [minTtlMs, maxTtlMs].
 *
 * @example
 * ```ts
 * successTtlMs([redirect301MaxAgeDay, ok200MaxAge60], {}, DEFAULT_CACHE_POLICY); // 3600000: 60 s floored to 1 h
 * ```
 */
export function successTtlMs(
  responses: readonly DecidingResponse[],
  requestHeaders: Readonly<Record<string, string>>,
  policy: ResolvedCachePolicy,
): number {
  let ttl = Number.POSITIVE_INFINITY;
  for (const response of responses) ttl = Math.min(ttl, freshnessMs(response, requestHeaders));
  if (responses.length === 0) ttl = 0;
  return Math.min(policy.maxTtlMs, Math.max(policy.minTtlMs, Math.floor(ttl)));
}
