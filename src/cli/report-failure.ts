import { isCanonError } from "../errors/guards.js";

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
  return `${index}\t${oneLine(input)}\t${errorCode(error)}: ${oneLine(errorMessage(error))}\n`;
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
