/**
 * Options of {@link surt}.
 *
 * @example
 * ```ts
 * const options: SurtOptions = { preset: "none", keepWww: true };
 * ```
 */
export interface SurtOptions {
  /**
   * The canonurl normalization that runs before the Archive's own steps, for http(s) input:
   * `"rfc3986"` (syntax only), `"identity"` (also tracking parameters and domain rules, like
   * `normalize()`), or `"none"` (the Archive's steps alone, which also accept input the WHATWG
   * parser refuses). Other schemes always get the Archive's steps alone.
   * @default "rfc3986"
   */
  preset?: "identity" | "rfc3986" | "none";
  /**
   * Keep a leading `www.` (`www2.`, …) in the host. The Archive drops it, so `www.example.com`
   * and `example.com` share a key.
   * @default false
   */
  keepWww?: boolean;
}

/** {@link SurtOptions} with every default filled in. */
export interface ResolvedSurtOptions {
  readonly preset: "identity" | "rfc3986" | "none";
  readonly keepWww: boolean;
}

const DEFAULTS: ResolvedSurtOptions = Object.freeze({ preset: "rfc3986", keepWww: false });
const PRESETS = new Set(["identity", "rfc3986", "none"]);

/**
 * Validates {@link SurtOptions}: an unknown key or a wrong type throws `TypeError` naming the
 * option. Returns a frozen object (the shared default when there are no options).
 *
 * @example
 * ```ts
 * resolveSurtOptions({ keepWww: true }); // { preset: "rfc3986", keepWww: true }
 * ```
 */
export function resolveSurtOptions(options: SurtOptions | undefined): ResolvedSurtOptions {
  if (options === undefined) return DEFAULTS;
  if (typeof options !== "object" || options === null) throw new TypeError("surt: options must be an object");
  for (const key of Object.keys(options))
    if (key !== "preset" && key !== "keepWww") throw new TypeError(`surt: unknown option "${key}"`);
  const preset = options.preset ?? "rfc3986";
  if (!PRESETS.has(preset))
    throw new TypeError(
      `surt: preset must be "identity", "rfc3986" or "none", got ${JSON.stringify(preset)}`,
    );
  const keepWww = options.keepWww ?? false;
  if (typeof keepWww !== "boolean")
    throw new TypeError(`surt: keepWww must be a boolean, got ${typeof keepWww}`);
  if (preset === "rfc3986" && !keepWww) return DEFAULTS;
  return Object.freeze({ preset, keepWww });
}
