import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { OPTION_FIELDS, OPTION_NAMES, queryOptionSchemas } from "./option-fields.js";
import {
  batchJsonSchema,
  batchLineSchema,
  capabilitiesSchema,
  errorSchema,
  explanationSchema,
  healthSchema,
  normalizeLineSchema,
  normalizeResultSchema,
  outcomeLineSchema,
  urlFormSchema,
} from "./schemas.js";

// OpenAPI 3.1 uses JSON Schema 2020-12 as its schema dialect (OpenAPI 3.1.0 §4.8.24).
const schema = (s: v.GenericSchema) => {
  const { $schema: _dialect, ...rest } = toJsonSchema(s, { target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
  return rest;
};

const json = (s: v.GenericSchema) => ({ "application/json": { schema: schema(s) } });

function errors(...statuses: number[]) {
  const text: Record<number, string> = {
    400: "Bad input or option",
    401: "Missing or wrong bearer token",
    403: "Resolving is not enabled on this instance",
    413: "Body or batch too large",
    429: "Over the concurrency limit",
    503: "Shutting down",
  };
  return Object.fromEntries(
    statuses.map((status) => [String(status), { description: text[status], content: json(errorSchema) }]),
  );
}

const common = errors(429, 503);

function optionParameters() {
  return OPTION_NAMES.map((name) => {
    const list = OPTION_FIELDS[name].kind === "strings";
    return {
      name,
      in: "query",
      required: false,
      description: OPTION_FIELDS[name].doc,
      ...(list ? { style: "form", explode: true } : {}),
      schema: schema(queryOptionSchemas[name]),
    };
  });
}

const urlParameter = (name: string, description: string) => ({
  name,
  in: "query",
  required: true,
  description,
  schema: { type: "string" },
});

const batchBody = {
  required: true,
  description:
    'NDJSON, one {"url": …} per line (the first line may be {"options": {…}}), or one JSON document: an array of inputs or {"options": {…}, "urls": […]}.',
  content: {
    "application/x-ndjson": { schema: schema(batchLineSchema) },
    "application/json": { schema: schema(batchJsonSchema) },
  },
};

const ndjson = (s: v.GenericSchema, description: string) => ({
  description,
  content: { "application/x-ndjson": { schema: schema(s) } },
});

/**
 * The OpenAPI 3.1 document of the service, generated from the very valibot schemas that validate
 * its requests (and that the tests check its answers against).
 *
 * @example
 * ```ts
 * createOpenApiDocument().openapi; // "3.1.0"
 * ```
 */
export function createOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "canonurl serve",
      version: "0.1.0",
      description: "Canonical URLs over HTTP: classify, normalize, explain, and (when enabled) resolve.",
    },
    paths: {
      "/v1/normalize": {
        get: {
          summary: "Normalize one URL",
          parameters: [urlParameter("url", "The URL to normalize"), ...optionParameters()],
          responses: {
            200: { description: "The canonical form", content: json(normalizeResultSchema) },
            ...errors(400),
            ...common,
          },
        },
        post: {
          summary: "Normalize a batch, streamed as NDJSON in input order",
          parameters: optionParameters(),
          requestBody: batchBody,
          responses: {
            200: ndjson(normalizeLineSchema, "One line per input, in input order"),
            ...errors(400, 413),
            ...common,
          },
        },
      },
      "/v1/explain": {
        get: {
          summary: "The pipeline, stage by stage",
          parameters: [urlParameter("url", "The URL to explain"), ...optionParameters()],
          responses: {
            200: { description: "An Explanation", content: json(explanationSchema) },
            ...errors(400),
            ...common,
          },
        },
      },
      "/v1/classify": {
        get: {
          summary: "What an untrusted string structurally carries",
          parameters: [urlParameter("s", "Any string")],
          responses: {
            200: { description: "A UrlForm", content: json(urlFormSchema) },
            ...errors(400),
            ...common,
          },
        },
      },
      "/v1/resolve": {
        post: {
          summary: "Resolve a batch over the network, streamed as NDJSON Outcomes in input order",
          security: [{}, { bearer: [] }],
          parameters: optionParameters(),
          requestBody: batchBody,
          responses: {
            200: ndjson(outcomeLineSchema, "One Outcome per input, in input order"),
            ...errors(400, 401, 403, 413),
            ...common,
          },
        },
      },
      "/v1/capabilities": {
        get: {
          summary: "What this instance allows",
          responses: { 200: { description: "Capabilities", content: json(capabilitiesSchema) }, ...common },
        },
      },
      "/openapi.json": {
        get: { summary: "This document", responses: { 200: { description: "OpenAPI 3.1" } } },
      },
      "/": { get: { summary: "The playground page", responses: { 200: { description: "HTML" } } } },
      "/healthz": {
        get: {
          summary: "Liveness",
          responses: { 200: { description: "Up", content: json(healthSchema) }, ...errors(503) },
        },
      },
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  };
}
