import * as v from "valibot";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import { HttpError } from "./http-error.js";
import { bodyOptionsSchema, OPTION_NAMES, type OptionName } from "./option-fields.js";

/** A parsed batch request: the inputs in order and the options the body carried, if any. */
export interface Batch {
  urls: string[];
  options: NormalizeOptions | undefined;
}

/** How a batch body is read, from its `Content-Type`. */
export type BatchFormat = "json" | "ndjson" | "text" | "sniff";

// Checked per key so a message names the option at fault, not valibot's view of a union.
const optionNames = new Set<string>(OPTION_NAMES);
const optionSchemas = bodyOptionsSchema.entries as Record<OptionName, v.GenericSchema>;

/**
 * The format a `Content-Type` header asks for (api.md §9, issue 23): `application/json` (or any
 * `+json` type) is one JSON document, `application/x-ndjson` (also `application/jsonl`,
 * `application/ndjson`) is NDJSON, `text/plain` is one URL per line as the command line reads
 * stdin. No header at all keeps the old behaviour of telling JSON from NDJSON by the body. Any
 * other type is `HttpError` 415 naming it.
 *
 * @example
 * ```ts
 * batchFormat("application/json; charset=utf-8"); // "json"
 * ```
 */
export function batchFormat(contentType: string | null | undefined): BatchFormat {
  if (contentType === null || contentType === undefined || contentType.trim() === "") return "sniff";
  const type = (contentType.split(";")[0] as string).trim().toLowerCase();
  if (type === "application/json" || /^application\/[\w.+-]*\+json$/.test(type)) return "json";
  if (type === "application/x-ndjson" || type === "application/ndjson" || type === "application/jsonl")
    return "ndjson";
  if (type === "text/plain") return "text";
  throw new HttpError(
    415,
    "unsupported-media-type",
    `Content-Type "${type}" is not a batch: send application/json, application/x-ndjson or text/plain`,
  );
}

/**
 * Parses a batch body (api.md §9) in `format` (see {@link batchFormat}): a JSON array of inputs
 * (`"url"` or `{"url": "url"}`), the same wrapped as `{"options": {…}, "urls": […]}`, NDJSON, one
 * `{"url": …}` per line, with an optional first line `{"options": {…}}`, or plain text, one URL
 * per line (`\n` or `\r\n` ends a line). Blank lines are not inputs. More than `maxItems` inputs
 * is `HttpError` 413 `batch-too-large` (counted while parsing); malformed JSON or a value of the
 * wrong shape is 400 naming the line, the field or the option at fault.
 *
 * @example
 * ```ts
 * parseBatch('{"url":"a.example"}\n{"url":"b.example"}\n', 1000).urls; // ["a.example", "b.example"]
 * ```
 */
export function parseBatch(text: string, maxItems: number, format: BatchFormat = "sniff"): Batch {
  const tooMany = () => new HttpError(413, "batch-too-large", `a batch holds at most ${maxItems} URLs`);
  if (format === "text") return { urls: textLines(text, maxItems, tooMany), options: undefined };
  const start = text.search(/\S/);
  if (start === -1) return { urls: [], options: undefined };
  const whole =
    format === "json" ||
    (format === "sniff" && (text[start] === "[" || (text[start] === "{" && isWholeJsonObject(text))));
  if (whole) return jsonDocument(text, maxItems, tooMany);
  const urls: string[] = [];
  let options: NormalizeOptions | undefined;
  let lineNo = 0;
  let first = true;
  for (const line of text.split("\n")) {
    lineNo++;
    if (line.trim() === "") continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new HttpError(400, "bad-request", `line ${lineNo} is not JSON: ${(error as Error).message}`);
    }
    // The common line, {"url": "…"} alone, skips the checks below: 1,000-line batches are the
    // service's hot path.
    const url = (parsed as { url?: unknown } | null)?.url;
    if (typeof url === "string" && Object.keys(parsed as object).length === 1) {
      if (urls.length === maxItems) throw tooMany();
      urls.push(url);
    } else {
      const where = `line ${lineNo}`;
      if (!isPlainObject(parsed)) {
        throw new HttpError(
          400,
          "bad-request",
          `${where}: expected an object {"url": "…"}, got ${kind(parsed)}`,
        );
      }
      const keys = Object.keys(parsed);
      const unknown = keys.find((k) => k !== "url" && k !== "options");
      if (unknown !== undefined) {
        throw new HttpError(
          400,
          "bad-request",
          `${where}: unknown field "${unknown}" (a line holds "url", or "options" on the first line)`,
        );
      }
      if ("url" in parsed) {
        if (keys.length > 1)
          throw new HttpError(400, "bad-request", `${where}: "url" and "options" on one line`);
        throw new HttpError(400, "bad-request", `${where}: "url" must be a string, got ${kind(parsed.url)}`);
      }
      if (!first) throw new HttpError(400, "bad-request", `${where}: options may only come first`);
      options = checkOptions(parsed.options, `${where}: options`);
    }
    first = false;
  }
  return { urls, options };
}

function jsonDocument(text: string, maxItems: number, tooMany: () => HttpError): Batch {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "bad-request", `the body is not JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(document)) return { urls: items(document, "", maxItems, tooMany), options: undefined };
  if (!isPlainObject(document)) {
    throw new HttpError(
      400,
      "bad-request",
      `the body must be a JSON array of URLs or an object {"urls": […]}, got ${kind(document)}`,
    );
  }
  const unknown = Object.keys(document).find((k) => k !== "urls" && k !== "options");
  if (unknown !== undefined) {
    throw new HttpError(
      400,
      "bad-request",
      `unknown field "${unknown}" (a batch object holds "urls" and "options")`,
    );
  }
  if (!Array.isArray(document.urls)) {
    throw new HttpError(400, "bad-request", `"urls" must be an array, got ${kind(document.urls)}`);
  }
  const options = document.options === undefined ? undefined : checkOptions(document.options, "options");
  return { urls: items(document.urls, "urls", maxItems, tooMany), options };
}

// Each item is a URL string or {"url": string}; the message names the item's index.
function items(list: unknown[], field: string, maxItems: number, tooMany: () => HttpError): string[] {
  if (list.length > maxItems) throw tooMany();
  const urls: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item === "string") urls.push(item);
    else if (isPlainObject(item) && typeof item.url === "string" && Object.keys(item).length === 1)
      urls.push(item.url);
    else {
      throw new HttpError(
        400,
        "bad-request",
        `${field}[${i}]: expected a URL string or {"url": "…"}, got ${describeItem(item)}`,
      );
    }
  }
  return urls;
}

function describeItem(item: unknown): string {
  if (!isPlainObject(item)) return kind(item);
  const extra = Object.keys(item).find((k) => k !== "url");
  if (extra !== undefined) return `an object with field "${extra}"`;
  return `"url" as ${kind(item.url)}`;
}

// Options by name: an unknown one, or a value of the wrong type, is named with the reason.
function checkOptions(value: unknown, where: string): NormalizeOptions {
  if (!isPlainObject(value))
    throw new HttpError(400, "invalid-option", `${where} must be an object, got ${kind(value)}`);
  for (const [name, given] of Object.entries(value)) {
    if (!optionNames.has(name)) {
      throw new HttpError(400, "invalid-option", `${where}: unknown option "${name}"`);
    }
    const checked = v.safeParse(optionSchemas[name as OptionName], given);
    if (!checked.success) {
      const message = checked.issues[0]?.message ?? "invalid";
      throw new HttpError(400, "invalid-option", `${where}.${name}: ${message}`);
    }
  }
  return value as NormalizeOptions;
}

function textLines(text: string, maxItems: number, tooMany: () => HttpError): string[] {
  const urls: string[] = [];
  for (const raw of text.split("\n")) {
    // As the command line reads stdin: a \r\n pair is one ending; a lone \r stays in its line.
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") continue;
    if (urls.length === maxItems) throw tooMany();
    urls.push(line);
  }
  return urls;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return `a string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}

// A body that is one JSON object spanning the whole text (the wrapper form, possibly
// pretty-printed) rather than NDJSON lines: it parses as a whole and names "urls".
function isWholeJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && "urls" in value;
  } catch {
    return false;
  }
}
