/**
 * What a {@link TrackingLayer} asks for one URL: remove the query parameters whose names
 * `remove` accepts, or replace the URL by the link it wraps (`unwrap`, an absolute http(s) URL,
 * which then goes through the whole pipeline).
 *
 * @example
 * ```ts
 * const action: TrackingLayerAction = { remove: (name) => name.startsWith("pk_") };
 * ```
 */
export type TrackingLayerAction =
  | { readonly remove: (name: string) => boolean }
  | { readonly unwrap: string };

/**
 * A tracking layer: a list of noise parameters (and wrappers) applied after the domain rule that
 * claimed the URL, instead of competing with the rules for it. A layer never claims a URL: it
 * only removes parameters and may unwrap. `inspect` gets the URL as the rule left it (the generic
 * pass's output when no rule claimed it), serialized, without its fragment; it returns what to do,
 * or `undefined` to leave it. A layer that throws, or that unwraps to something that is no
 * absolute http(s) URL, or deeper than the pipeline unwraps (8), is skipped for that URL: no order
 * of layers can make a valid link fail. The caller's `keepParams` outrank every layer.
 *
 * The ClearURLs pack is one (`clearUrlsLayer()`); a list of your own is a few lines:
 *
 * @example
 * ```ts
 * const matomo: TrackingLayer = {
 *   name: "matomo",
 *   inspect: () => ({ remove: (name) => name.startsWith("pk_") || name.startsWith("mtm_") }),
 * };
 * normalize("https://shop.example/a?pk_campaign=x&id=2", { trackingLayers: [matomo] });
 * // "https://shop.example/a?id=2"
 * ```
 */
export interface TrackingLayer {
  /** Shown in `explain()`'s `layer` steps. */
  readonly name: string;
  inspect(href: string): TrackingLayerAction | undefined;
}
