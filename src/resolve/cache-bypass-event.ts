/**
 * The `event` in the data of the logger call that reports a cache bypass (a failing or slow cache,
 * once per outage), so a caller can single it out among debug messages (the CLI prints it).
 *
 * @example
 * ```ts
 * createClient({ cache, logger: { debug: (m, d) => d?.event === CACHE_BYPASS_EVENT && console.warn(m) } });
 * ```
 */
export const CACHE_BYPASS_EVENT = "cache-bypass";
