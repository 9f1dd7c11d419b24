import { trackingParamNames } from "../generated/data.js";

/** The two tiers of data/tracking-params.yaml, as names. */
export interface TrackingParamTiers {
  readonly everywhere: readonly string[];
  readonly contextual: readonly string[];
}

// The names alone, as the build extracted them; the build also checks the file with
// readTrackingParams (scripts/check-data.mjs), so nothing is validated at import.
const tiers: TrackingParamTiers = {
  everywhere: Object.freeze([...trackingParamNames.everywhere]),
  contextual: Object.freeze([...trackingParamNames.contextual]),
};

/**
 * The built-in tracking parameter patterns (`data/tracking-params.yaml`), both tiers: the names
 * that are tracking on every site (`utm_*`, `gclid`, `fbclid`, `gbraid`, `wbraid`, `srsltid`,
 * `mkt_tok`, `_hsenc`, `yclid`, `ttclid`, `twclid`, `li_fat_id`, …) followed by the contextual
 * ones (`ref`, `source`, `si`), which a domain rule's `exemptParams` keeps on the hosts where they
 * name the resource. Typed `readonly string[]`, so it can be passed back as `trackingParams`.
 *
 * @example
 * ```ts
 * defaultTrackingParams.includes("gclid"); // true
 * normalize(url, { trackingParams: defaultTrackingParams.filter((p) => p !== "si") });
 * ```
 */
export const defaultTrackingParams: readonly string[] = Object.freeze([
  ...tiers.everywhere,
  ...tiers.contextual,
]);

/**
 * The contextual tier alone: names that are tracking on most sites but carry meaning on some
 * (`ref` is a git ref on a code host). Still in {@link defaultTrackingParams}.
 *
 * @example
 * ```ts
 * contextualTrackingParams.includes("ref"); // true
 * ```
 */
export const contextualTrackingParams: readonly string[] = tiers.contextual;

/**
 * Checks the parsed `data/tracking-params.yaml` and returns each tier's names: every entry has a
 * name (exact, or a `prefix*` pattern), a `source` and a `what`, and no name is listed twice.
 * Throws `TypeError` naming the entry. Run by the build, not at import.
 *
 * @example
 * ```ts
 * readTrackingParams({ everywhere: [{ name: "gclid", what: "Google Ads click id", source: "https://…" }], contextual: [] });
 * // { everywhere: ["gclid"], contextual: [] }
 * ```
 */
export function readTrackingParams(value: unknown): TrackingParamTiers {
  const fail = (message: string): never => {
    throw new TypeError(`data/tracking-params.yaml: ${message}`);
  };
  if (typeof value !== "object" || value === null) return fail("must be a mapping");
  const record = value as Record<string, unknown>;
  const seen = new Set<string>();
  const tier = (key: "everywhere" | "contextual"): readonly string[] => {
    const list = record[key];
    if (!Array.isArray(list)) return fail(`"${key}" must be a list`);
    return Object.freeze(
      list.map((entry: unknown, i) => {
        const e = entry as Record<string, unknown> | null;
        const name = e?.name;
        // Each entry names its documentation: a fact without a source is not shipped.
        if (typeof name !== "string" || name === "" || (name.includes("*") && !/^[^*]+\*$/.test(name)))
          return fail(`${key}[${i}].name must be a name or a prefix* pattern`);
        if (typeof e?.source !== "string" || e.source === "")
          return fail(`${key}[${i}] (${name}) needs a source`);
        if (typeof e?.what !== "string" || e.what === "")
          return fail(`${key}[${i}] (${name}) needs a "what"`);
        if (seen.has(name.toLowerCase())) return fail(`${key}[${i}]: "${name}" is listed twice`);
        seen.add(name.toLowerCase());
        return name;
      }),
    );
  };
  return { everywhere: tier("everywhere"), contextual: tier("contextual") };
}
