import * as v from "valibot";
import { bodyOptionsSchema } from "./option-fields.js";

// The request schemas validate what arrives; the response schemas document what leaves (and the
// tests parse real responses with them, so /openapi.json cannot drift from the service).

/**
 * One input of a batch: the URL itself, or `{"url": "…"}`.
 *
 * @example
 * ```ts
 * v.is(batchItemSchema, { url: "https://example.com/" }); // true
 * ```
 */
export const batchItemSchema = v.union([v.string(), v.strictObject({ url: v.string() })]);

/**
 * A batch as one JSON document: an array of items, or `{"options": {…}, "urls": [ … ]}`.
 *
 * @example
 * ```ts
 * v.is(batchJsonSchema, ["https://a.example/", { url: "b.example" }]); // true
 * ```
 */
export const batchJsonSchema = v.union([
  v.array(batchItemSchema),
  v.strictObject({ options: v.optional(bodyOptionsSchema), urls: v.array(batchItemSchema) }),
]);

/**
 * One NDJSON line of a batch body: `{"url": "…"}`, or, as the first line only, `{"options": {…}}`.
 *
 * @example
 * ```ts
 * v.is(batchLineSchema, { options: { preset: "rfc3986" } }); // true
 * ```
 */
export const batchLineSchema = v.union([
  v.strictObject({ url: v.string() }),
  v.strictObject({ options: bodyOptionsSchema }),
]);

/** `{error: {code, message}}`, the body of every failure. @example v.is(errorSchema, { error: { code: "x", message: "y" } }); */
export const errorSchema = v.strictObject({
  error: v.strictObject({ code: v.string(), message: v.string() }),
});

/** GET /v1/normalize's answer. @example v.is(normalizeResultSchema, { canonical: "http://a.example/", ruleApplied: null, paramsStripped: [] }); */
export const normalizeResultSchema = v.strictObject({
  canonical: v.string(),
  ruleApplied: v.nullable(v.string()),
  paramsStripped: v.array(v.string()),
});

const failedLine = v.strictObject({
  index: v.number(),
  input: v.string(),
  ok: v.literal(false),
  error: errorSchema.entries.error,
});

/** One NDJSON line of POST /v1/normalize's answer. @example v.is(normalizeLineSchema, { index: 0, input: "x", ok: false, error: { code: "invalid-url", message: "…" } }); */
export const normalizeLineSchema = v.union([
  v.strictObject({
    index: v.number(),
    input: v.string(),
    ok: v.literal(true),
    ...normalizeResultSchema.entries,
  }),
  failedLine,
]);

/** GET /v1/explain's answer: an `Explanation`. @example v.is(explanationSchema, explain("a.example")); */
export const explanationSchema = v.strictObject({
  ...normalizeResultSchema.entries,
  input: v.string(),
  steps: v.array(
    v.strictObject({
      stage: v.picklist(["parse", "generic", "rule", "layer", "final"]),
      url: v.string(),
      rule: v.optional(v.string()),
    }),
  ),
});

/** GET /v1/classify's answer: a `UrlForm`. @example v.is(urlFormSchema, classify("a.example")); */
export const urlFormSchema = v.strictObject({
  class: v.picklist([
    "empty",
    "malformed",
    "absolute",
    "hidden-host",
    "protocol-relative",
    "schemeless-host",
    "relative",
  ]),
  trimmed: v.string(),
  host: v.string(),
  scheme: v.string(),
  port: v.string(),
  hasBackslash: v.boolean(),
  hasTabOrNewline: v.boolean(),
  hasUserInfo: v.boolean(),
  hostUnrecoverable: v.boolean(),
  scriptScheme: v.boolean(),
});

const hopSchema = v.strictObject({
  url: v.string(),
  via: v.picklist(["initial", "redirect", "canonical-link"]),
  method: v.picklist(["HEAD", "GET"]),
  status: v.nullable(v.number()),
});

/** One NDJSON line of POST /v1/resolve's answer: an `Outcome`. @example v.is(outcomeLineSchema, line); */
export const outcomeLineSchema = v.union([
  v.object({
    index: v.number(),
    input: v.string(),
    ok: v.literal(true),
    result: v.object({
      url: v.string(),
      original: v.string(),
      source: v.picklist(["initial", "redirect", "canonical-link"]),
      chain: v.array(hopSchema),
      status: v.number(),
      headers: v.record(v.string(), v.string()),
      ruleApplied: v.nullable(v.string()),
      paramsStripped: v.array(v.string()),
      verified: v.boolean(),
      durationMs: v.number(),
      cached: v.boolean(),
    }),
  }),
  failedLine,
]);

/** GET /v1/capabilities: what this instance allows, so a page can offer only what works. @example v.is(capabilitiesSchema, { resolve: false, tokenRequired: false }); */
export const capabilitiesSchema = v.strictObject({ resolve: v.boolean(), tokenRequired: v.boolean() });

/** GET /healthz. @example v.is(healthSchema, { ok: true }); */
export const healthSchema = v.strictObject({ ok: v.literal(true) });
