import type { Outcome } from "../../resolve/types.js";
import { errorJson, failureLine } from "./report-failure.js";

/** What one resolved input prints: its stdout line, a stderr report when it failed. */
export interface LineOutput {
  stdout: string;
  stderr?: string;
  failed: boolean;
}

/**
 * A failed input's output: with `json` one `{ index, input, ok: false, error }` line; else an
 * empty stdout line (so output lines stay paired with input lines) and the report on stderr.
 *
 * @example
 * ```ts
 * failedOutput(2, "nope", new UrlError("invalid-url", "bad"), false).stdout; // "\n"
 * ```
 */
export function failedOutput(index: number, input: string, error: unknown, json: boolean): LineOutput {
  if (json)
    return {
      stdout: `${JSON.stringify({ index, input, ok: false, error: errorJson(error) })}\n`,
      failed: true,
    };
  return { stdout: "\n", stderr: failureLine(index, input, error), failed: true };
}

/**
 * One resolution's output, the same for network mode and `fleet results`: the canonical URL, or
 * with `json` the whole Resolution (chain, source, rule, parameters stripped, verified, cached).
 *
 * @example
 * ```ts
 * outcomeOutput(0, outcome, false).stdout; // "https://example.com/\n"
 * ```
 */
export function outcomeOutput(index: number, outcome: Outcome, json: boolean): LineOutput {
  const { input } = outcome;
  if (!outcome.ok) return failedOutput(index, input, outcome.error, json);
  const { url, source, chain, ruleApplied, paramsStripped, verified, cached } = outcome.result;
  if (!json) return { stdout: `${url}\n`, failed: false };
  const line = { index, input, ok: true, url, source, chain, ruleApplied, paramsStripped, verified, cached };
  return { stdout: `${JSON.stringify(line)}\n`, failed: false };
}
