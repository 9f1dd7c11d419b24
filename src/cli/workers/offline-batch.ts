import { canonicalWith, normalizeResolved } from "../../pipeline/normalize.js";
import type { ResolvedNormalizeOptions } from "../../pipeline/resolve-normalize-options.js";
import { isBlankLine } from "../../url/blank-line.js";
import { archiveKey, type OutputFormat } from "../flags/format-flag.js";
import type { InputLine } from "../io/line-splitter.js";
import { errorJson, failureLine, overlongError, overlongInput } from "../io/report-failure.js";

/** What one batch of offline inputs prints: stdout and stderr text, and how many inputs failed. */
export interface BatchOutput {
  out: string;
  err: string;
  failures: number;
}

/**
 * The `--json` line of a blank input: a success with an empty `url`, marked `blank`, so every
 * input line still has exactly one object and an NDJSON reader never meets an empty line.
 *
 * @example
 * ```ts
 * blankJson(3, " "); // '{"index":3,"input":" ","ok":true,"blank":true,"url":"","source":"initial","chain":[],"ruleApplied":null,"paramsStripped":[]}\n'
 * ```
 */
export function blankJson(index: number, input: string): string {
  return `${JSON.stringify({ index, input, ok: true, blank: true, url: "", source: "initial", chain: [], ruleApplied: null, paramsStripped: [] })}\n`;
}

/**
 * Canonicalizes a batch of lines offline, input `i` of the batch being input `base + i` of the
 * run, and returns the whole batch's output as two strings: one write per batch instead of one per
 * line. The single-threaded run and every worker thread call this same function, which is why
 * `--workers N` prints the same bytes as `--workers 1`.
 *
 * @example
 * ```ts
 * formatOfflineBatch(["HTTP://A.test/x/", "ftp://b"], 0, resolveNormalizeOptions(undefined), false);
 * // { out: "http://a.test/x\n\n", err: "1\tftp://b\tunsupported-scheme: …\n", failures: 1 }
 * ```
 */
export function formatOfflineBatch(
  lines: readonly InputLine[],
  base: number,
  options: ResolvedNormalizeOptions,
  json: boolean,
  format: OutputFormat = "url",
): BatchOutput {
  let out = "";
  let err = "";
  let failures = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as InputLine;
    const index = base + i;
    if (typeof line !== "string") {
      failures++;
      const input = overlongInput(line);
      const error = overlongError(line);
      if (json) out += `${JSON.stringify({ index, input, ok: false, error: errorJson(error) })}\n`;
      else {
        out += "\n";
        err += failureLine(index, input, error);
      }
      continue;
    }
    if (isBlankLine(line)) {
      out += json ? blankJson(index, line) : "\n";
      continue;
    }
    try {
      if (json) {
        const { canonical: url, ruleApplied, stripped: paramsStripped } = normalizeResolved(line, options);
        const result = {
          index,
          input: line,
          ok: true,
          url,
          source: "initial",
          chain: [],
          ruleApplied,
          paramsStripped,
        };
        // --format adds the key under its own name; `url` stays the canonical URL.
        out += `${JSON.stringify(format === "url" ? result : { ...result, [format]: archiveKey(format, url) })}\n`;
      } else {
        const url = canonicalWith(line, options);
        out += `${format === "url" ? url : archiveKey(format, url)}\n`;
      }
    } catch (error) {
      failures++;
      if (json) out += `${JSON.stringify({ index, input: line, ok: false, error: errorJson(error) })}\n`;
      else {
        out += "\n";
        err += failureLine(index, line, error);
      }
    }
  }
  return { out, err, failures };
}
