import type { ParseArgsConfig } from "node:util";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import { UsageError } from "./io.js";

/** The `node:util` parseArgs option table of the flags that shape normalization. */
export const NORMALIZE_FLAGS = {
  preset: { type: "string" },
  "no-sort": { type: "boolean" },
  "trailing-slash": { type: "string" },
  "keep-param": { type: "string", multiple: true },
  rules: { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/** Parsed values of {@link NORMALIZE_FLAGS}. */
export interface NormalizeFlagValues {
  preset?: string;
  "no-sort"?: boolean;
  "trailing-slash"?: string;
  "keep-param"?: string[];
}

/**
 * Turns parsed flag values into {@link NormalizeOptions}, rejecting bad values as usage errors
 * (exit status 2) rather than letting the library's TypeError escape as an internal error.
 *
 * @example
 * ```ts
 * normalizeOptionsFromFlags({ preset: "rfc3986", "keep-param": ["ref"] }); // { preset: "rfc3986", keepParams: ["ref"] }
 * ```
 */
export function normalizeOptionsFromFlags(values: NormalizeFlagValues): NormalizeOptions {
  const options: NormalizeOptions = {};
  if (values.preset !== undefined) {
    if (values.preset !== "identity" && values.preset !== "rfc3986") {
      throw new UsageError(`--preset must be identity or rfc3986, got '${values.preset}'`);
    }
    options.preset = values.preset;
  }
  if (values["no-sort"] === true) options.sortParams = false;
  const slash = values["trailing-slash"];
  if (slash !== undefined) {
    if (slash !== "keep" && slash !== "strip" && slash !== "add") {
      throw new UsageError(`--trailing-slash must be keep, strip or add, got '${slash}'`);
    }
    options.trailingSlash = slash;
  }
  if (values["keep-param"] !== undefined) options.keepParams = values["keep-param"];
  return options;
}
