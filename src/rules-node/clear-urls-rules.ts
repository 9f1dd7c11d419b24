import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TrackingLayer } from "../pipeline/tracking-layer.js";
import { type ClearUrlsPack, compileClearUrls } from "../rules/clearurls/compile-clear-urls.js";
import type { DomainRule } from "../rules/domain-rule.js";

const SNAPSHOT = join("data", "clearurls", "data.min.json");

/**
 * Where the shipped ClearURLs snapshot lives: `data/clearurls/data.min.json` at the package root,
 * found by walking up from this module (dist/rules-node in the package, build/src/rules-node in
 * the tests). It is read at run time, never compiled into canonurl's code: the file is LGPL-3.0
 * data and stays replaceable.
 *
 * @example
 * ```ts
 * readFileSync(clearUrlsSnapshotPath(), "utf8").length > 0; // true
 * ```
 */
export function clearUrlsSnapshotPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, SNAPSHOT);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`canonurl: the ClearURLs snapshot (${SNAPSHOT}) is missing from the package`);
}

let shipped: ClearUrlsPack | undefined;

/**
 * The ClearURLs provider list as domain rules, to append after canonurl's own (first match wins,
 * so they act only where none of ours claims the URL). Without `data` it compiles the snapshot
 * shipped in `data/clearurls/` (once per process); with `data` (a parsed ClearURLs
 * `data.min.json`, e.g. a newer one) it compiles that. In `canonurl/core`, use
 * `compileClearUrls(data).rules`.
 *
 * @example
 * ```ts
 * const rules = [...defaultRules, ...clearUrlsRules()];
 * normalize("https://www.google.com/url?q=https%3A%2F%2Fexample.com%2Fa&sa=D", { rules });
 * // "https://example.com/a" — unwrapped, then normalized
 * ```
 */
export function clearUrlsRules(data?: unknown): DomainRule[] {
  if (data !== undefined) return [...compileClearUrls(data).rules];
  return [...shippedPack().rules];
}

function shippedPack(): ClearUrlsPack {
  shipped ??= compileClearUrls(JSON.parse(readFileSync(clearUrlsSnapshotPath(), "utf8")) as unknown);
  return shipped;
}

/**
 * The ClearURLs provider list as a tracking layer: after the built-in (or your) domain rule that
 * claimed a URL, it removes the parameters the providers remove and unwraps their redirections,
 * instead of competing with the rules for the URL (as {@link clearUrlsRules} does). Without
 * `data` it uses the snapshot shipped in `data/clearurls/` (compiled once per process); with
 * `data`, a parsed ClearURLs `data.min.json`. In `canonurl/core`, use `compileClearUrls(data).layer`.
 *
 * @example
 * ```ts
 * normalize("https://www.amazon.co.uk/s?k=kettle&crid=2M&ref=nb_sb_noss", { trackingLayers: [clearUrlsLayer()] });
 * // "https://www.amazon.co.uk/s?k=kettle" — amazon-v3 claimed it, the layer cleaned it
 * ```
 */
export function clearUrlsLayer(data?: unknown): TrackingLayer {
  return data === undefined ? shippedPack().layer : compileClearUrls(data).layer;
}
