import { trackingParamNames } from "../generated/data.js";

/** A host-scoped tracking parameter: noise only on `hosts` (each host and its subdomains). */
export interface HostScopedTrackingParam {
  readonly name: string;
  readonly hosts: readonly string[];
}

/** The two tiers of data/tracking-params.yaml, as names. */
export interface TrackingParamTiers {
  readonly everywhere: readonly string[];
  readonly hostScoped: readonly HostScopedTrackingParam[];
}

// The names alone, as the build extracted them; the build also checks the file with
// readTrackingParams (scripts/check-data.mjs), so nothing is validated at import.
const tiers: TrackingParamTiers = {
  everywhere: Object.freeze([...trackingParamNames.everywhere]),
  hostScoped: Object.freeze(
    trackingParamNames.hostScoped.map((e) =>
      Object.freeze({ name: e.name, hosts: Object.freeze([...e.hosts]) }),
    ),
  ),
};

/**
 * The global tier of the built-in tracking parameters (`data/tracking-params.yaml`): names that
 * are tracking on every site (`utm_*`, `gclid`, `fbclid`, `gbraid`, `wbraid`, `gad_source`,
 * `srsltid`, `msclkid`, `mkt_tok`, `_hsenc`, `mc_eid`, `yclid`, `ttclid`, `twclid`, `li_fat_id`,
 * …). Since keyVersion 3 it no longer holds `ref`, `source` or `si`: those are noise only on the
 * hosts of {@link hostScopedTrackingParams}, which the identity preset strips there as well.
 * Typed `readonly string[]`, so it can be passed back as `trackingParams`.
 *
 * @example
 * ```ts
 * defaultTrackingParams.includes("gclid"); // true
 * normalize(url, { trackingParams: defaultTrackingParams.filter((p) => p !== "gclid") });
 * ```
 */
export const defaultTrackingParams: readonly string[] = tiers.everywhere;

/**
 * The host-scoped tier: share and campaign names that are noise only on their hosts (`si` on
 * YouTube and Spotify, `igsh` on Instagram, `source` on Medium, …), each with the hosts it applies
 * to (a host covers its subdomains). Stripped by the identity preset on those hosts, on every path,
 * whichever rule shapes the URL; `keepParams` saves a name.
 *
 * @example
 * ```ts
 * hostScopedTrackingParams.find((p) => p.name === "igsh")?.hosts; // ["instagram.com"]
 * ```
 */
export const hostScopedTrackingParams: readonly HostScopedTrackingParam[] = tiers.hostScoped;

/**
 * The names of the host-scoped tier ({@link hostScopedTrackingParams}), kept for callers of the
 * earlier "contextual" tier: since keyVersion 3 these are no longer in {@link defaultTrackingParams}.
 *
 * @example
 * ```ts
 * contextualTrackingParams.includes("si"); // true
 * ```
 */
export const contextualTrackingParams: readonly string[] = Object.freeze([
  ...new Set(tiers.hostScoped.map((e) => e.name)),
]);

const HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/**
 * Checks the parsed `data/tracking-params.yaml` and returns each tier's names: every entry has a
 * name (exact, or a `prefix*` pattern in the global tier), a `source` and a `what`; a host-scoped
 * entry lists lowercase host names; no name is listed twice in a tier. Throws `TypeError` naming
 * the entry. Run by the build, not at import.
 *
 * @example
 * ```ts
 * readTrackingParams({ everywhere: [{ name: "gclid", what: "Google Ads click id", source: "https://…" }], hostScoped: [] });
 * // { everywhere: ["gclid"], hostScoped: [] }
 * ```
 */
export function readTrackingParams(value: unknown): TrackingParamTiers {
  const fail = (message: string): never => {
    throw new TypeError(`data/tracking-params.yaml: ${message}`);
  };
  if (typeof value !== "object" || value === null) return fail("must be a mapping");
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (key !== "everywhere" && key !== "hostScoped") fail(`unknown tier "${key}"`);
  const entries = (key: "everywhere" | "hostScoped") => {
    const list = record[key];
    if (!Array.isArray(list)) return fail(`"${key}" must be a list`);
    const seen = new Set<string>();
    return list.map((entry: unknown, i) => {
      const e = entry as Record<string, unknown> | null;
      const name = e?.name;
      const pattern = /^[^*]+\*$/;
      if (typeof name !== "string" || name === "" || (name.includes("*") && !pattern.test(name)))
        return fail(`${key}[${i}].name must be a name or a prefix* pattern`);
      // Each entry names its documentation: a fact without a source is not shipped.
      if (typeof e?.source !== "string" || e.source === "")
        return fail(`${key}[${i}] (${name}) needs a source`);
      if (typeof e?.what !== "string" || e.what === "") return fail(`${key}[${i}] (${name}) needs a "what"`);
      if (seen.has(name.toLowerCase())) return fail(`${key}[${i}]: "${name}" is listed twice`);
      seen.add(name.toLowerCase());
      return { name, e: e as Record<string, unknown> };
    });
  };
  const everywhere = Object.freeze(entries("everywhere").map((x) => x.name));
  const hostScoped = Object.freeze(
    entries("hostScoped").map(({ name, e }, i) => {
      const hosts = e.hosts;
      if (
        !Array.isArray(hosts) ||
        hosts.length === 0 ||
        !hosts.every((h) => typeof h === "string" && HOST.test(h))
      )
        return fail(`hostScoped[${i}] (${name}).hosts must be a non-empty list of lowercase host names`);
      return Object.freeze({ name, hosts: Object.freeze([...(hosts as string[])]) });
    }),
  );
  return { everywhere, hostScoped };
}
