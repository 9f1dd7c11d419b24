import { trackingParams as data } from "../generated/data.js";

/**
 * The built-in tracking parameter patterns (`data/tracking-params.yaml`): `utm_*`, `gclid`,
 * `fbclid`, `mc_*`, `oly_*`, `_ga`, `_gl`, `ref`, `source`, `msclkid`, `dclid`, `zanpid`, `igshid`, `si`.
 *
 * @example
 * ```ts
 * defaultTrackingParams.includes("gclid"); // true
 * ```
 */
export const defaultTrackingParams: readonly string[] = loadTrackingParams(data);

function loadTrackingParams(value: unknown): readonly string[] {
  const params = (value as { params?: unknown } | null)?.params;
  if (!Array.isArray(params) || !params.every((p) => typeof p === "string" && p !== "" && p !== "*")) {
    throw new TypeError(
      "data/tracking-params.yaml: `params` must be a list of non-empty names or prefix* patterns",
    );
  }
  return Object.freeze([...params]);
}
