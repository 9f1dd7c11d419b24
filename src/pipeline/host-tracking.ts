import { hostScopedTrackingParams } from "./default-tracking-params.js";

// Domain → the host-scoped names listed for it, built once at load from data/tracking-params.yaml.
const byDomain = new Map<string, string[]>();
for (const { name, hosts } of hostScopedTrackingParams)
  for (const host of hosts) {
    const list = byDomain.get(host);
    if (list === undefined) byDomain.set(host, [name]);
    else list.push(name);
  }
for (const [domain, list] of byDomain) byDomain.set(domain, Object.freeze(list) as string[]);

// A host under two listed domains (none today) gets one merged list, remembered so that the
// pipeline's per-list memo keeps one entry per host; bounded like the pipeline's other memos.
const merged = new Map<string, readonly string[]>();

/**
 * The host-scoped tracking names that apply on `hostname` (lowercase, no trailing dot): those
 * listed for the host or any parent domain of it, or `undefined`. The same host always gets the
 * same array, so callers may key memos by it. Cost: one Map probe per label of the host.
 *
 * @example
 * ```ts
 * hostTrackingNames("m.youtube.com"); // ["si", "feature"]
 * hostTrackingNames("example.com"); // undefined
 * ```
 */
export function hostTrackingNames(hostname: string): readonly string[] | undefined {
  let found: readonly string[] | undefined;
  let key = "";
  for (let at = 0; at !== -1; ) {
    const domain = at === 0 ? hostname : hostname.slice(at);
    const list = byDomain.get(domain);
    if (list !== undefined) {
      if (found === undefined) found = list;
      else {
        key = key === "" ? domain : `${key} ${domain}`;
        found = [...found, ...list];
      }
    }
    const dot = hostname.indexOf(".", at);
    at = dot === -1 ? -1 : dot + 1;
  }
  if (key === "") return found;
  const known = merged.get(hostname);
  if (known !== undefined) return known;
  if (merged.size >= 1024) merged.clear();
  const frozen = Object.freeze([...new Set(found)]);
  merged.set(hostname, frozen);
  return frozen;
}
