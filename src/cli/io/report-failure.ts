import { isCanonError } from "../../errors/guards.js";
import { UrlError } from "../../errors/url-error.js";
import { MAX_LINE_BYTES, type OverlongLine } from "./line-splitter.js";

/**
 * The stderr line for a failed input: `index<TAB>input<TAB>code: message`. Tabs and newlines in
 * the input are escaped so one failure is always one line.
 *
 * @example
 * ```ts
 * failureLine(3, "ftp://x", new UrlError("unsupported-scheme", "unsupported scheme")); // "3\tftp://x\tunsupported-scheme: unsupported scheme\n"
 * ```
 */
export function failureLine(index: number, input: string, error: unknown): string {
  return failureLineOf(index, input, errorJson(error));
}

/**
 * {@link failureLine} from the `{ code, message }` a `--json` line carries (a dedupe run reads
 * the JSON objects and reports their failures as a plain run does).
 *
 * @example
 * ```ts
 * failureLineOf(3, "ftp://x", { code: "unsupported-scheme", message: "unsupported scheme" }); // "3\tftp://x\tunsupported-scheme: unsupported scheme\n"
 * ```
 */
export function failureLineOf(
  index: number,
  input: string,
  error: { code: string; message: string },
): string {
  return `${index}\t${oneLine(input)}\t${error.code}: ${oneLine(error.message)}\n`;
}

/**
 * The `{ code, message }` object `--json` prints for a failure.
 *
 * @example
 * ```ts
 * errorJson(new TypeError("bad")); // { code: "internal", message: "bad" }
 * ```
 */
export function errorJson(error: unknown): { code: string; message: string } {
  return { code: errorCode(error), message: errorMessage(error) };
}

function errorCode(error: unknown): string {
  return isCanonError(error) ? error.code : "internal";
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function oneLine(s: string): string {
  return s.replace(/[\t\r\n]/g, (c) => (c === "\t" ? "\\t" : c === "\r" ? "\\r" : "\\n"));
}

/**
 * What a report shows as the input of an over-long line: its first characters and an ellipsis.
 *
 * @example
 * ```ts
 * overlongInput({ prefix: "https://a.test/aaaa", bytes: 2_000_000 }); // "https://a.test/aaaa…"
 * ```
 */
export function overlongInput(line: OverlongLine): string {
  return `${line.prefix}…`;
}

/**
 * The failure of an over-long line: `invalid-url`, saying its length and the limit.
 *
 * @example
 * ```ts
 * overlongError({ prefix: "x", bytes: 2_000_000 }).message; // "invalid URL: line of 2000000 bytes is over the 1048576-byte line limit"
 * ```
 */
export function overlongError(line: OverlongLine): UrlError {
  return new UrlError(
    "invalid-url",
    `invalid URL: line of ${line.bytes} bytes is over the ${MAX_LINE_BYTES}-byte line limit`,
    { url: overlongInput(line) },
  );
}
