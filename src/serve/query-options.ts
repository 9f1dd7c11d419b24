import * as v from "valibot";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import { HttpError } from "./http-error.js";
import { isListOption, OPTION_FIELDS, type OptionName, queryOptionSchemas } from "./option-fields.js";

function isOptionName(name: string): name is OptionName {
  return Object.hasOwn(OPTION_FIELDS, name);
}

/**
 * Reads normalize options from query parameters (`?preset=rfc3986&keepParams=a&keepParams=b`),
 * validated by the same field table as the JSON body. `reserved` names the route's own
 * parameters (`url`), which are skipped here. An unknown parameter, a repeated single-valued one
 * or a bad value is an `HttpError` 400 `invalid-option` naming the parameter. Returns
 * `undefined` when no option is given, so the library's shared defaults apply.
 *
 * @example
 * ```ts
 * optionsFromQuery(new URLSearchParams("url=x&sortParams=false"), ["url"]); // { sortParams: false }
 * ```
 */
export function optionsFromQuery(
  query: URLSearchParams,
  reserved: readonly string[],
): NormalizeOptions | undefined {
  const options: Record<string, unknown> = {};
  let any = false;
  for (const name of new Set(query.keys())) {
    if (reserved.includes(name)) continue;
    if (!isOptionName(name)) throw new HttpError(400, "invalid-option", `unknown query parameter "${name}"`);
    const values = query.getAll(name);
    if (!isListOption(name) && values.length > 1) {
      throw new HttpError(400, "invalid-option", `query parameter "${name}" given ${values.length} times`);
    }
    const raw = isListOption(name) ? values : values[0];
    const checked = v.safeParse(queryOptionSchemas[name], raw);
    if (!checked.success) {
      throw new HttpError(
        400,
        "invalid-option",
        `query parameter "${name}": ${checked.issues[0]?.message ?? "invalid value"}`,
      );
    }
    const field = OPTION_FIELDS[name];
    options[name] = field.kind === "boolean" || field.kind === "false" ? raw === "true" : raw;
    any = true;
  }
  return any ? (options as NormalizeOptions) : undefined;
}

/**
 * The one required text parameter of a GET route (`url`, `s`), given exactly once.
 *
 * @example
 * ```ts
 * requiredParam(new URLSearchParams("s=x"), "s"); // "x"
 * ```
 */
export function requiredParam(query: URLSearchParams, name: string): string {
  const values = query.getAll(name);
  if (values.length !== 1) {
    throw new HttpError(
      400,
      "bad-request",
      values.length === 0 ? `query parameter "${name}" is required` : `query parameter "${name}" given twice`,
    );
  }
  return values[0] as string;
}
