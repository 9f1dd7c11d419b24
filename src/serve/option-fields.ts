import * as v from "valibot";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";

/**
 * The normalize options a client may send, one row each: the single table both the JSON body
 * schema and the query-parameter schema are generated from, so a new option cannot be accepted by
 * one and missing from the other (or from /openapi.json). `rules` takes only `false` over HTTP:
 * a domain rule is code (its `match`/`apply`), which JSON cannot carry.
 *
 * @example
 * ```ts
 * OPTION_FIELDS.sortParams.kind; // "boolean"
 * ```
 */
export const OPTION_FIELDS = {
  preset: { kind: "enum", values: ["identity", "rfc3986"], doc: 'Pipeline preset. Default "identity".' },
  stripTracking: { kind: "boolean", doc: "Remove tracking parameters. Default: true for identity." },
  trackingParams: {
    kind: "strings",
    doc: 'Deny patterns for tracking parameters ("utm_*" is a prefix). Default: the built-in list.',
  },
  extraTrackingParams: {
    kind: "strings",
    doc: "Deny patterns added to trackingParams (the built-in list unless trackingParams is given).",
  },
  keepParams: { kind: "strings", doc: "Parameter names never stripped (exact names)." },
  stripUserinfo: {
    kind: "boolean",
    doc: "Drop user:password@ from the URL. Default: true for identity (credentials never reach a key).",
  },
  sortParams: { kind: "boolean", doc: "Sort query parameters. Default: true for identity." },
  trailingSlash: {
    kind: "enum",
    values: ["keep", "strip", "add"],
    doc: "Trailing slash of a non-root path.",
  },
  stripFragment: { kind: "boolean", doc: "Drop the fragment. Default true." },
  rules: { kind: "false", doc: "false: no domain rules (the built-in rules apply otherwise)." },
  forceHttps: { kind: "boolean", doc: "http:// becomes https:// (normalize-url's habit). Default false." },
  stripWWW: {
    kind: "boolean",
    doc: "www.example.com becomes example.com (normalize-url's habit). Default false.",
  },
  removeDirectoryIndex: {
    kind: "boolean",
    doc: "/a/index.html becomes /a/ (normalize-url's habit). Default false.",
  },
  removeSessionIds: {
    kind: "boolean",
    doc: "Remove session ids (;jsessionid=, PHPSESSID, ASPSESSIONID…, CFID/CFTOKEN). Default: true for identity.",
  },
  defaultScheme: {
    kind: "enum",
    values: ["http", "https"],
    doc: 'Scheme for input without one. Default "http".',
  },
} as const satisfies Record<
  string,
  | { kind: "enum"; values: readonly string[]; doc: string }
  | { kind: "boolean" | "strings" | "false"; doc: string }
>;

/** The name of one option of {@link OPTION_FIELDS}. */
export type OptionName = keyof typeof OPTION_FIELDS;

// A request can carry every normalize option: a field added to NormalizeOptions fails the build
// here until it has a row above.
type Never<T extends never> = T;
/**
 * The normalize options without a row in {@link OPTION_FIELDS}: none, or the build fails. Except
 * `trackingLayers`: a layer is code (its `inspect`), which JSON cannot carry, as `rules` is.
 */
export type UncoveredOptions = Never<Exclude<keyof NormalizeOptions, OptionName | "trackingLayers">>;

/** The option names, in table order. */
export const OPTION_NAMES = Object.keys(OPTION_FIELDS) as OptionName[];

function bodySchema(name: OptionName) {
  const field = OPTION_FIELDS[name];
  const described = <S extends v.GenericSchema>(schema: S) => v.pipe(schema, v.description(field.doc));
  switch (field.kind) {
    case "enum":
      return described(v.picklist(field.values));
    case "boolean":
      return described(v.boolean());
    case "strings":
      return described(v.pipe(v.array(v.string()), v.maxLength(1000)));
    case "false":
      return described(v.literal(false));
  }
}

function querySchema(name: OptionName) {
  const field = OPTION_FIELDS[name];
  const described = <S extends v.GenericSchema>(schema: S) => v.pipe(schema, v.description(field.doc));
  switch (field.kind) {
    case "enum":
      return described(v.picklist(field.values));
    case "boolean":
      return described(v.picklist(["true", "false"]));
    case "strings":
      return described(v.pipe(v.array(v.string()), v.maxLength(1000)));
    case "false":
      return described(v.literal("false"));
  }
}

/**
 * The `options` object of a POST body: every field optional, unknown keys refused.
 *
 * @example
 * ```ts
 * v.parse(bodyOptionsSchema, { preset: "rfc3986" });
 * ```
 */
export const bodyOptionsSchema = v.strictObject(
  Object.fromEntries(OPTION_NAMES.map((name) => [name, v.optional(bodySchema(name))])) as {
    [K in OptionName]: v.OptionalSchema<ReturnType<typeof bodySchema>, undefined>;
  },
);

/**
 * One query parameter's schema, as it arrives (text; a list for the repeatable ones).
 *
 * @example
 * ```ts
 * v.is(queryOptionSchemas.sortParams, "false"); // true
 * ```
 */
export const queryOptionSchemas: Readonly<Record<OptionName, v.GenericSchema>> = Object.fromEntries(
  OPTION_NAMES.map((name) => [name, querySchema(name)]),
) as unknown as Record<OptionName, v.GenericSchema>;

/** Whether a query parameter may repeat (`keepParams=a&keepParams=b`). */
export function isListOption(name: OptionName): boolean {
  return OPTION_FIELDS[name].kind === "strings";
}
