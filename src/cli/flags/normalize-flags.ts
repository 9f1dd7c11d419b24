import type { ParseArgsConfig } from "node:util";
import type { NormalizeOptions } from "../../pipeline/normalize-options.js";
import {
  type ResolvedNormalizeOptions,
  resolveNormalizeOptions,
} from "../../pipeline/resolve-normalize-options.js";
import { createDefaultRules } from "../../rules/index.js";
import { clearUrlsLayer } from "../../rules-node/clear-urls-rules.js";
import { UsageError } from "../io/io.js";
import { type RulesFile, readRulesFile, rulesFromFile } from "./rules-flag.js";

/** `--rules clearurls` names the shipped ClearURLs pack, not a file (`--rules ./clearurls` is the file). */
const CLEARURLS = "clearurls";

/**
 * The `node:util` parseArgs option table of the flags that shape normalization: one flag (or a
 * pair) for every {@link NormalizeOptions} key, except `trackingParams`, whose replacement of the
 * whole built-in list has no flag: `--strip-param` adds to it (`extraTrackingParams`) and
 * `--no-strip-tracking` turns it off, which covers what a command line needs (docs/cli.md).
 */
export const NORMALIZE_FLAGS = {
  preset: { type: "string" },
  sort: { type: "boolean" },
  "no-sort": { type: "boolean" },
  "trailing-slash": { type: "string" },
  "keep-param": { type: "string", multiple: true },
  "strip-param": { type: "string", multiple: true },
  "strip-tracking": { type: "boolean" },
  "no-strip-tracking": { type: "boolean" },
  "no-strip-fragment": { type: "boolean" },
  "strip-userinfo": { type: "boolean" },
  "no-strip-userinfo": { type: "boolean" },
  "default-scheme": { type: "string" },
  rules: { type: "string" },
  "no-rules": { type: "boolean" },
  "amazon-host": { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/** Parsed values of {@link NORMALIZE_FLAGS}. */
export interface NormalizeFlagValues {
  preset?: string | undefined;
  sort?: boolean | undefined;
  "no-sort"?: boolean | undefined;
  "trailing-slash"?: string | undefined;
  "keep-param"?: string[] | undefined;
  "strip-param"?: string[] | undefined;
  "strip-tracking"?: boolean | undefined;
  "no-strip-tracking"?: boolean | undefined;
  "no-strip-fragment"?: boolean | undefined;
  "strip-userinfo"?: boolean | undefined;
  "no-strip-userinfo"?: boolean | undefined;
  "default-scheme"?: string | undefined;
  rules?: string | undefined;
  "no-rules"?: boolean | undefined;
  "amazon-host"?: string | undefined;
}

/**
 * Everything needed to build the normalize options, as plain data: the flag values and the text of
 * the rules file. Worker threads receive this (rules hold functions, which cannot cross a thread)
 * and build the same options from it.
 */
export interface NormalizeRecipe {
  values: NormalizeFlagValues;
  rulesFile?: RulesFile;
}

/**
 * Reads what the flags name (the `--rules` file) into a {@link NormalizeRecipe}.
 *
 * @example
 * ```ts
 * const recipe = await readNormalizeRecipe({ rules: "my-rules.yaml" });
 * ```
 */
export async function readNormalizeRecipe(values: NormalizeFlagValues): Promise<NormalizeRecipe> {
  const recipe: NormalizeRecipe = { values: pickNormalizeFlags(values) };
  // Checked before the file is read, so the contradiction is what the user is told about.
  if (values["no-rules"] === true && values.rules !== undefined) {
    throw new UsageError("--rules and --no-rules contradict each other");
  }
  if (values.rules !== undefined && values.rules !== CLEARURLS)
    recipe.rulesFile = await readRulesFile(values.rules);
  return recipe;
}

function pickNormalizeFlags(values: NormalizeFlagValues): NormalizeFlagValues {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(NORMALIZE_FLAGS)) {
    const value = (values as Record<string, unknown>)[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked as NormalizeFlagValues;
}

function oneOf<T extends string>(
  value: string | undefined,
  flag: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  const list =
    allowed.length === 2 ? allowed.join(" or ") : `${allowed.slice(0, -1).join(", ")} or ${allowed.at(-1)}`;
  throw new UsageError(`--${flag} must be ${list}, got '${value}'`);
}

function pair(
  values: NormalizeFlagValues,
  on: keyof NormalizeFlagValues,
  off: keyof NormalizeFlagValues,
): boolean | undefined {
  if (values[on] === true && values[off] === true)
    throw new UsageError(`--${on} and --${off} contradict each other`);
  if (values[on] === true) return true;
  if (values[off] === true) return false;
  return undefined;
}

/**
 * Turns a {@link NormalizeRecipe} into {@link NormalizeOptions}, rejecting bad values and
 * contradicting flags as usage errors (exit status 2) rather than letting the library's TypeError
 * escape as an internal error. Invalid rules in the file raise the library's `RuleError`.
 *
 * @example
 * ```ts
 * normalizeOptionsFromRecipe({ values: { preset: "rfc3986", "keep-param": ["ref"] } }); // { preset: "rfc3986", keepParams: ["ref"] }
 * ```
 */
export function normalizeOptionsFromRecipe(recipe: NormalizeRecipe): NormalizeOptions {
  const { values } = recipe;
  const options: NormalizeOptions = {};
  const preset = oneOf(values.preset, "preset", ["identity", "rfc3986"] as const);
  if (preset !== undefined) options.preset = preset;
  const sort = pair(values, "sort", "no-sort");
  if (sort !== undefined) options.sortParams = sort;
  const slash = oneOf(values["trailing-slash"], "trailing-slash", ["keep", "strip", "add"] as const);
  if (slash !== undefined) options.trailingSlash = slash;
  if (values["keep-param"] !== undefined) options.keepParams = values["keep-param"];
  const stripTracking = pair(values, "strip-tracking", "no-strip-tracking");
  if (stripTracking !== undefined) options.stripTracking = stripTracking;
  if (values["strip-param"] !== undefined) {
    if (stripTracking === false)
      throw new UsageError("--strip-param and --no-strip-tracking contradict each other");
    options.extraTrackingParams = values["strip-param"];
  }
  if (values["no-strip-fragment"] === true) options.stripFragment = false;
  const stripUserinfo = pair(values, "strip-userinfo", "no-strip-userinfo");
  if (stripUserinfo !== undefined) options.stripUserinfo = stripUserinfo;
  const scheme = oneOf(values["default-scheme"], "default-scheme", ["http", "https"] as const);
  if (scheme !== undefined) options.defaultScheme = scheme;
  const amazonHost = oneOf(values["amazon-host"], "amazon-host", ["regional", "com"] as const);
  if (values["no-rules"] === true) {
    if (recipe.rulesFile !== undefined || values.rules !== undefined)
      throw new UsageError("--rules and --no-rules contradict each other");
    if (amazonHost !== undefined) throw new UsageError("--amazon-host and --no-rules contradict each other");
    options.rules = false;
  } else if (recipe.rulesFile !== undefined) {
    options.rules = rulesFromFile(recipe.rulesFile, preset, amazonHost);
  } else if (values.rules === CLEARURLS) {
    // The ClearURLs pack as a tracking layer (issue 22): it cleans after the built-in rule that
    // claimed the URL instead of competing with it (with rfc3986 there are no rules).
    if (preset === "rfc3986" && amazonHost !== undefined)
      throw new UsageError(
        "--amazon-host picks among the built-in rules, which --preset rfc3986 does not apply",
      );
    const builtIn =
      preset === "rfc3986" ? [] : createDefaultRules(amazonHost === undefined ? undefined : { amazonHost });
    options.rules = builtIn;
    options.trackingLayers = [clearUrlsLayer()];
  } else if (amazonHost !== undefined) {
    if (preset === "rfc3986") {
      throw new UsageError(
        "--amazon-host picks among the built-in rules, which --preset rfc3986 does not apply",
      );
    }
    options.rules = [...createDefaultRules({ amazonHost })];
  }
  return options;
}

/**
 * {@link normalizeOptionsFromRecipe} and the library's own validation (an empty name in
 * `--keep-param` or `--strip-param`), resolved once for the per-line loop; a TypeError of the library
 * becomes a usage error.
 *
 * @example
 * ```ts
 * const resolved = resolveRecipe({ values: { "no-sort": true } }); // resolved.sortParams === false
 * ```
 */
export function resolveRecipe(recipe: NormalizeRecipe): ResolvedNormalizeOptions {
  return checkOptions(normalizeOptionsFromRecipe(recipe));
}

/**
 * Validates built options with the library, turning its `TypeError` into a usage error.
 *
 * @example
 * ```ts
 * checkOptions({ keepParams: [""] }); // throws UsageError
 * ```
 */
export function checkOptions(options: NormalizeOptions): ResolvedNormalizeOptions {
  try {
    return resolveNormalizeOptions(options);
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}
