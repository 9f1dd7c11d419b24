import type { DomainRule } from "../rules/domain-rule.js";
import type { TrailingSlashPolicy } from "../url/trailing-slash.js";
import { builtinRules } from "./builtin-rules.js";
import { defaultTrackingParams } from "./default-tracking-params.js";
import type { NormalizeOptions } from "./normalize-options.js";
import { createTrackingMatcher, type TrackingMatcher } from "./tracking-matcher.js";

/** {@link NormalizeOptions} with every default filled in, validated and frozen. */
export interface ResolvedNormalizeOptions {
  readonly preset: "identity" | "rfc3986";
  readonly stripTracking: boolean;
  readonly trackingParams: readonly string[];
  readonly keepParams: readonly string[];
  readonly sortParams: boolean;
  readonly trailingSlash: TrailingSlashPolicy;
  readonly stripFragment: boolean;
  readonly rules: readonly DomainRule[];
  readonly defaultScheme: "http" | "https";
  /** Compiled from `trackingParams` and `keepParams`. */
  readonly isTracking: TrackingMatcher;
}

/** The option names {@link resolveNormalizeOptions} accepts, for callers that extend them. */
export const NORMALIZE_OPTION_KEYS: ReadonlySet<string> = new Set([
  "preset",
  "stripTracking",
  "trackingParams",
  "keepParams",
  "sortParams",
  "trailingSlash",
  "stripFragment",
  "rules",
  "defaultScheme",
]);

const DEFAULT_MATCHER = createTrackingMatcher(defaultTrackingParams, []);

const PRESET_DEFAULTS = {
  identity: Object.freeze({
    preset: "identity",
    stripTracking: true,
    trackingParams: defaultTrackingParams,
    keepParams: Object.freeze([]) as readonly string[],
    sortParams: true,
    trailingSlash: "strip",
    stripFragment: true,
    rules: builtinRules,
    defaultScheme: "http",
    isTracking: DEFAULT_MATCHER,
  } satisfies ResolvedNormalizeOptions),
  rfc3986: Object.freeze({
    preset: "rfc3986",
    stripTracking: false,
    trackingParams: defaultTrackingParams,
    keepParams: Object.freeze([]) as readonly string[],
    sortParams: false,
    trailingSlash: "keep",
    stripFragment: true,
    rules: Object.freeze([]) as readonly DomainRule[],
    defaultScheme: "http",
    isTracking: DEFAULT_MATCHER,
  } satisfies ResolvedNormalizeOptions),
} as const;

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
  for (const key in options) {
    if (NORMALIZE_OPTION_KEYS.has(key)) {
      if (key !== "preset" && (options as Record<string, unknown>)[key] !== undefined) changed = true;
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

  const trackingParams = stringList(options.trackingParams, "trackingParams") ?? base.trackingParams;
  const keepParams = stringList(options.keepParams, "keepParams") ?? base.keepParams;
  const resolved: ResolvedNormalizeOptions = {
    preset,
    stripTracking: bool(options.stripTracking, "stripTracking") ?? base.stripTracking,
    trackingParams,
    keepParams,
    sortParams: bool(options.sortParams, "sortParams") ?? base.sortParams,
    trailingSlash:
      oneOf(options.trailingSlash, "trailingSlash", ["keep", "strip", "add"]) ?? base.trailingSlash,
    stripFragment: bool(options.stripFragment, "stripFragment") ?? base.stripFragment,
    rules: ruleList(options.rules) ?? base.rules,
    defaultScheme: oneOf(options.defaultScheme, "defaultScheme", ["http", "https"]) ?? base.defaultScheme,
    isTracking:
      trackingParams === base.trackingParams && keepParams.length === 0
        ? base.isTracking
        : createTrackingMatcher(trackingParams, keepParams),
  };
  return Object.freeze(resolved);
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

// Rules arrays already checked: the rule lookup is cached by the array's identity too (a changed
// list takes a new array), and checking a 200-rule pack on every call cost more than normalizing.
const checkedRuleLists = new WeakSet<object>();

function ruleList(value: unknown): readonly DomainRule[] | undefined {
  if (value === undefined) return undefined;
  if (value === false) return Object.freeze([]);
  if (Array.isArray(value) && checkedRuleLists.has(value)) return value as readonly DomainRule[];
  if (Array.isArray(value)) {
    value.forEach((rule: unknown, i) => {
      const r = rule as Partial<DomainRule> | null;
      if (
        typeof r !== "object" ||
        r === null ||
        typeof r.name !== "string" ||
        typeof r.match !== "function" ||
        typeof r.apply !== "function"
      ) {
        throw new TypeError(`option "rules"[${i}] must be a DomainRule { name, match(url), apply(url) }`);
      }
    });
    checkedRuleLists.add(value);
    return value as readonly DomainRule[];
  }
  throw new TypeError('option "rules" must be an array of DomainRule or false');
}
