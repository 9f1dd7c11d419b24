import { isIP } from "node:net";
import { defaultResolver } from "../../resolve/guard/default-resolver.js";

/** A `resolver` client option: DNS answers (A and AAAA) for a host name. */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<string[]>;

/** A host name as a DNS lookup sees it: ASCII lowercase, without the root's trailing dot. */
function lookupName(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

/**
 * A `resolver` that answers fixed addresses for the host names in `answers` (what `--resolve
 * HOST:ADDRESS` gives, like curl's option of that name) and asks `fallback` for every other name.
 * The answers are only DNS answers: the client still runs them through its address and port
 * policy, so `--resolve evil.test:10.0.0.1` is refused unless `--allow-network` lets 10.0.0.1 in.
 *
 * @example
 * ```ts
 * const resolver = createFixedResolver(new Map([["origin.test", ["127.0.0.1"]]]));
 * await resolver("ORIGIN.test.", AbortSignal.timeout(1000)); // ["127.0.0.1"]
 * ```
 */
export function createFixedResolver(
  answers: ReadonlyMap<string, readonly string[]>,
  fallback: Resolver = defaultResolver,
): Resolver {
  const table = new Map<string, readonly string[]>();
  for (const [host, addresses] of answers) {
    for (const address of addresses) {
      if (isIP(address) === 0) throw new TypeError(`not an IP address for ${host}: '${address}'`);
    }
    table.set(lookupName(host), Object.freeze([...addresses]));
  }
  const resolver: Resolver = (hostname, signal) => {
    const fixed = table.get(lookupName(hostname));
    if (fixed === undefined) return fallback(hostname, signal);
    if (signal.aborted) return Promise.reject(signal.reason);
    return Promise.resolve([...fixed]);
  };
  // Part of the resolution cache key (cache-key.ts): answers got through other addresses are
  // other answers (issue 23: a run pinned to a staging address served later production runs).
  const entries = [...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const fallbackIdentity = (fallback as { cacheIdentity?: unknown }).cacheIdentity;
  const cacheIdentity = `fixed:${JSON.stringify(entries)}${fallback === defaultResolver ? "" : `+${typeof fallbackIdentity === "string" ? fallbackIdentity : "custom"}`}`;
  return Object.assign(resolver, { cacheIdentity });
}
