import { keyVersion as generated } from "../generated/data.js";

/**
 * The version of the keys {@link normalize} gives with its defaults: it changes whenever a default
 * output can change (the built-in rules, the tracking tiers, the generic pass). Store it beside
 * each key; when it differs from the one stored, re-key. CHANGELOG.md lists every value and what
 * changed. Its form is `{pipeline revision}.{hash of the built-in data}`; compare it as an opaque
 * string.
 *
 * @example
 * ```ts
 * const row = { key: normalize(url), keyVersion };
 * if (row.keyVersion !== keyVersion) row.key = normalize(url);
 * ```
 */
export const keyVersion: string = generated;
