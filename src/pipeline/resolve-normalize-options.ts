import type { DomainRule } from "../rules/domain-rule.js";
import type { TrailingSlashPolicy } from "../url/trailing-slash.js";
import { builtinRules } from "./builtin-rules.js";
import { defaultTrackingParams } from "./default-tracking-params.js";
import type { NormalizeOptions } from "./normalize-options.js";
import { internRules } from "./rule-lookup.js";
import type { TrackingLayer } from "./tracking-layer.js";
import { createTrackingMatcher, type TrackingMatcher } from "./tracking-matcher.js";

/** {@link NormalizeOptions} with every default filled in, validated and frozen. */
export interface ResolvedNormalizeOptions {
  readonly preset: "identity" | "rfc3986";
  readonly stripTracking: boolean;
  /** `trackingParams` (or the built-in list) with `extraTrackingParams` appended. */
  readonly trackingParams: readonly string[];
  readonly keepParams: readonly string[];
  readonly stripUserinfo: boolean;
  readonly sortParams: boolean;
  readonly trailingSlash: TrailingSlashPolicy;
  readonly stripFragment: boolean;
  readonly rules: readonly DomainRule[];
  readonly defaultScheme: "http" | "https";
  readonly trackingLayers: readonly TrackingLayer[];
  readonly forceHttps: boolean;
  readonly stripWWW: boolean;
  readonly removeDirectoryIndex: boolean;
  readonly removeSessionIds: boolean;
  /** Compiled from `trackingParams` and `keepParams`. */
  readonly isTracking: TrackingMatcher;
}

/** The option names {@link resolveNormalizeOptions} accepts, for callers that extend them. */
export const NORMALIZE_OPTION_KEYS: ReadonlySet<string> = new Set([
  "preset",
  "stripTracking",
  "trackingParams",
  "extraTrackingParams",
  "keepParams",
  "stripUserinfo",
  "sortParams",
  "trailingSlash",
  "stripFragment",
  "rules",
  "defaultScheme",
  "trackingLayers",
  "forceHttps",
  "stripWWW",
  "removeDirectoryIndex",
  "removeSessionIds",
]);

const NO_LAYERS: readonly TrackingLayer[] = Object.freeze([]);

const DEFAULT_MATCHER = createTrackingMatcher(defaultTrackingParams, []);

const PRESET_DEFAULTS = {
  identity: Object.freeze({
    preset: "identity",
    stripTracking: true,
    trackingParams: defaultTrackingParams,
    keepParams: Object.freeze([]) as readonly string[],
    stripUserinfo: true,
    sortParams: true,
    trailingSlash: "strip",
    stripFragment: true,
    rules: builtinRules,
    defaultScheme: "http",
    trackingLayers: NO_LAYERS,
    forceHttps: false,
    stripWWW: false,
    removeDirectoryIndex: false,
    removeSessionIds: true,
    isTracking: DEFAULT_MATCHER,
  } satisfies ResolvedNormalizeOptions),
  rfc3986: Object.freeze({
    preset: "rfc3986",
    stripTracking: false,
    trackingParams: defaultTrackingParams,
    keepParams: Object.freeze([]) as readonly string[],
    stripUserinfo: false,
    sortParams: false,
    trailingSlash: "keep",
    stripFragment: true,
    rules: Object.freeze([]) as readonly DomainRule[],
    defaultScheme: "http",
    trackingLayers: NO_LAYERS,
    forceHttps: false,
    stripWWW: false,
    removeDirectoryIndex: false,
    removeSessionIds: false,
    isTracking: DEFAULT_MATCHER,
  } satisfies ResolvedNormalizeOptions),
} as const;

/**
 * Whether `options` is one of the presets' own shared objects (what `resolveNormalizeOptions`
 * returns for no options, or for only `preset`): they live as long as the module, so a memo may
 * hold on to them and to what it derives from them without keeping anything else alive.
 *
 * @example
 * ```ts
 * isPresetDefault(resolveNormalizeOptions(undefined)); // true
 * isPresetDefault(resolveNormalizeOptions({ keepParams: ["ref"] })); // false
 * ```
 */
export function isPresetDefault(options: ResolvedNormalizeOptions): boolean {
  return options === PRESET_DEFAULTS.identity || options === PRESET_DEFAULTS.rfc3986;
}

/**
 * Validates `options` and fills in the preset's defaults. An unknown key, or a value of the wrong
 * type, throws a `TypeError` that names the option. With no options (or only `preset`) it returns
 * a shared frozen object, so the default call allocates nothing.
 *
 * `extraKeys` lets a caller whose options extend these (the client) pass its own keys through.
 *
 * @example
 * ```ts
 * resolveNormalizeOptions({ preset: "rfc3986" }).sortParams; // false
 * ```
 */
export function resolveNormalizeOptions(
  options: NormalizeOptions | undefined,
  extraKeys?: ReadonlySet<string>,
): ResolvedNormalizeOptions {
  if (options === undefined) return PRESET_DEFAULTS.identity;
  if (typeof options !== "object" || options === null) throw new TypeError("options must be an object");
  let changed = false;
  let onlyRules = true;
  for (const key in options) {
    if (NORMALIZE_OPTION_KEYS.has(key)) {
      if (key !== "preset" && (options as Record<string, unknown>)[key] !== undefined) {
        changed = true;
        if (key !== "rules") onlyRules = false;
      }
    } else if (!extraKeys?.has(key)) {
      throw new TypeError(`unknown option "${key}"`);
    }
  }
  const preset = options.preset ?? "identity";
  if (preset !== "identity" && preset !== "rfc3986") {
    throw new TypeError(`option "preset" must be "identity" or "rfc3986", got ${JSON.stringify(preset)}`);
  }
  const base = PRESET_DEFAULTS[preset];
  if (!changed) return base;
  if (onlyRules) return withRules(base, ruleList(options.rules) as readonly DomainRule[]);

  const replaced = stringList(options.trackingParams, "trackingParams") ?? base.trackingParams;
  const extra = stringList(options.extraTrackingParams, "extraTrackingParams");
  const trackingParams =
    extra === undefined || extra.length === 0 ? replaced : Object.freeze([...replaced, ...extra]);
  for (const [name, list] of [
    ["trackingParams", replaced],
    ["extraTrackingParams", extra ?? []],
  ] as const)
    for (const p of list) {
      const star = p.indexOf("*");
      if (star !== -1 && (star !== p.length - 1 || p.length === 1))
        throw new TypeError(`option "${name}": "${p}": "*" is only allowed at the end, as a prefix match`);
    }
  const keepParams = stringList(options.keepParams, "keepParams") ?? base.keepParams;
  for (const p of keepParams)
    if (p.includes("*"))
      throw new TypeError(
        `option "keepParams": "${p}": keepParams are exact names, a pattern is not allowed (use trackingParams to narrow what is stripped)`,
      );
  const resolved: ResolvedNormalizeOptions = {
    preset,
    stripTracking: bool(options.stripTracking, "stripTracking") ?? base.stripTracking,
    trackingParams,
    keepParams,
    stripUserinfo: bool(options.stripUserinfo, "stripUserinfo") ?? base.stripUserinfo,
    sortParams: bool(options.sortParams, "sortParams") ?? base.sortParams,
    trailingSlash:
      oneOf(options.trailingSlash, "trailingSlash", ["keep", "strip", "add"]) ?? base.trailingSlash,
    stripFragment: bool(options.stripFragment, "stripFragment") ?? base.stripFragment,
    rules: ruleList(options.rules) ?? base.rules,
    defaultScheme: oneOf(options.defaultScheme, "defaultScheme", ["http", "https"]) ?? base.defaultScheme,
    trackingLayers: layerList(options.trackingLayers) ?? base.trackingLayers,
    forceHttps: bool(options.forceHttps, "forceHttps") ?? base.forceHttps,
    stripWWW: bool(options.stripWWW, "stripWWW") ?? base.stripWWW,
    removeDirectoryIndex:
      bool(options.removeDirectoryIndex, "removeDirectoryIndex") ?? base.removeDirectoryIndex,
    removeSessionIds: bool(options.removeSessionIds, "removeSessionIds") ?? base.removeSessionIds,
    isTracking:
      trackingParams === base.trackingParams && keepParams.length === 0
        ? base.isTracking
        : createTrackingMatcher(trackingParams, keepParams),
  };
  return Object.freeze(resolved);
}

// The preset's defaults with a rules list, one frozen object per list and preset. `rules` is the
// most common option (`{ rules: [...defaultRules, ...clearUrlsRules()] }` on every call), and a
// new options object per call made everything keyed by it start cold each time: the pipeline's
// per-host exemption matchers were rebuilt per call. internRules gives a list equal to a recent
// one back as that one, so a list rebuilt per call finds its entry too. Held weakly by the list.
const byRules = new WeakMap<
  readonly DomainRule[],
  Partial<Record<"identity" | "rfc3986", ResolvedNormalizeOptions>>
>();

function withRules(base: ResolvedNormalizeOptions, rules: readonly DomainRule[]): ResolvedNormalizeOptions {
  let entry = byRules.get(rules);
  if (entry === undefined) {
    entry = {};
    byRules.set(rules, entry);
  }
  let resolved = entry[base.preset];
  if (resolved === undefined) {
    resolved = Object.freeze({ ...base, rules });
    entry[base.preset] = resolved;
  }
  return resolved;
}

function bool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  throw new TypeError(`option "${name}" must be a boolean, got ${typeof value}`);
}

function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (allowed.includes(value as T)) return value as T;
  throw new TypeError(
    `option "${name}" must be one of ${allowed.map((a) => `"${a}"`).join(", ")}, got ${JSON.stringify(value)}`,
  );
}

function stringList(value: unknown, name: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((v) => typeof v === "string" && v !== "")) {
    return Object.freeze([...(value as string[])]);
  }
  throw new TypeError(`option "${name}" must be an array of non-empty strings`);
}

function layerList(value: unknown): readonly TrackingLayer[] | undefined {
  if (value === undefined) return undefined;
  if (
    Array.isArray(value) &&
    value.every(
      (l) =>
        typeof l === "object" &&
        l !== null &&
        typeof (l as TrackingLayer).name === "string" &&
        typeof (l as TrackingLayer).inspect === "function",
    )
  )
    return value.length === 0 ? NO_LAYERS : Object.freeze([...(value as TrackingLayer[])]);
  throw new TypeError('option "trackingLayers" must be an array of { name: string, inspect(href) } layers');
}

const NO_RULES: readonly DomainRule[] = Object.freeze([]);
let lastList: unknown[] | undefined;
let lastInterned: readonly DomainRule[] = NO_RULES;

function ruleList(value: unknown): readonly DomainRule[] | undefined {
  if (value === undefined) return undefined;
  if (value === false) return NO_RULES;
  // Checked entry by entry; a list equal to one compiled lately comes back as that one (see internRules).
  // The usual caller passes one list on every call. Once that array has been found equal to a
  // compiled list (a frozen, checked snapshot), the same array again is answered with that
  // snapshot: one compare instead of a scan of every rule. A list is read when first seen (the
  // lookup keeps its rules even if the array is mutated afterwards), so this answer is the one
  // the scan would lead to; an array not compiled yet is scanned every time.
  if (Array.isArray(value)) {
    if (value === lastList) return lastInterned;
    const interned = internRules(value);
    if (interned !== value) {
      lastList = value;
      lastInterned = interned;
    }
    return interned;
  }
  throw new TypeError('option "rules" must be an array of DomainRule or false');
}
