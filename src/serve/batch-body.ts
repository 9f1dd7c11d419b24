import * as v from "valibot";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import { HttpError } from "./http-error.js";
import { type batchItemSchema, batchJsonSchema, batchLineSchema } from "./schemas.js";

/** A parsed batch request: the inputs in order and the options the body carried, if any. */
export interface Batch {
  urls: string[];
  options: NormalizeOptions | undefined;
}

function issue(result: { issues: readonly v.BaseIssue<unknown>[] }): string {
  const first = result.issues[0];
  const path = first?.path?.map((p) => String(p.key)).join(".") ?? "";
  return `${path === "" ? "" : `${path}: `}${first?.message ?? "invalid"}`;
}

function urlOf(item: v.InferOutput<typeof batchItemSchema>): string {
  return typeof item === "string" ? item : item.url;
}

/**
 * Parses a batch body (api.md §9): a JSON array of inputs (`"url"` or `{"url": "url"}`), the same
 * wrapped as `{"options": {…}, "urls": […]}`, or NDJSON, one `{"url": …}` per line, with an
 * optional first line `{"options": {…}}`. Blank lines are not inputs. More than `maxItems`
 * inputs is `HttpError` 413 `batch-too-large` (counted while parsing, so the count check does
 * not wait for the rest); malformed JSON or a line of the wrong shape is 400 naming the line.
 *
 * @example
 * ```ts
 * parseBatch('{"url":"a.example"}\n{"url":"b.example"}\n', 1000).urls; // ["a.example", "b.example"]
 * ```
 */
export function parseBatch(text: string, maxItems: number): Batch {
  const tooMany = () => new HttpError(413, "batch-too-large", `a batch holds at most ${maxItems} URLs`);
  const start = text.search(/\S/);
  if (start === -1) return { urls: [], options: undefined };
  if (text[start] === "[" || (text[start] === "{" && isWholeJsonObject(text))) {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new HttpError(400, "bad-request", `the body is not JSON: ${(error as Error).message}`);
    }
    const items = Array.isArray(document) ? document : (document as { urls?: unknown }).urls;
    if (Array.isArray(items) && items.length > maxItems) throw tooMany();
    const checked = v.safeParse(batchJsonSchema, document);
    if (!checked.success) throw new HttpError(400, "bad-request", `batch: ${issue(checked)}`);
    const value = checked.output;
    return Array.isArray(value)
      ? { urls: value.map(urlOf), options: undefined }
      : { urls: value.urls.map(urlOf), options: value.options as NormalizeOptions | undefined };
  }
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
    // The common line, {"url": "…"} alone, skips the schema walk: 1,000-line batches are the
    // service's hot path.
    const url = (parsed as { url?: unknown } | null)?.url;
    if (typeof url === "string" && Object.keys(parsed as object).length === 1) {
      if (urls.length === maxItems) throw tooMany();
      urls.push(url);
    } else {
      const checked = v.safeParse(batchLineSchema, parsed);
      if (!checked.success) throw new HttpError(400, "bad-request", `line ${lineNo}: ${issue(checked)}`);
      if (!("options" in checked.output) || !first) {
        throw new HttpError(400, "bad-request", `line ${lineNo}: options may only come first`);
      }
      options = checked.output.options as NormalizeOptions;
    }
    first = false;
  }
  return { urls, options };
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
