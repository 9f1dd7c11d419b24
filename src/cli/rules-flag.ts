import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { loadRules } from "../node/load-rules.js";
import type { DomainRule } from "../rules/domain-rule.js";
import { defaultRules } from "../rules/index.js";
import { UsageError } from "./io.js";

/**
 * Reads `--rules FILE` (JSON by its `.json` extension, else YAML). With the identity preset the
 * file's rules are tried before the built-in ones, so a user rule overrides a built-in for its
 * domains; with rfc3986 (no rules by default) they are the only rules. An unreadable file is a
 * usage error; invalid rules raise the `RuleError` that lists every problem with its path.
 *
 * @example
 * ```ts
 * const rules = await loadRulesFlag("my-rules.yaml", "identity");
 * ```
 */
export async function loadRulesFlag(path: string, preset: string | undefined): Promise<DomainRule[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new UsageError(`cannot read --rules file '${path}': ${(cause as Error).message}`);
  }
  const rules = loadRules(text, extname(path).toLowerCase() === ".json" ? "json" : "yaml");
  return preset === "rfc3986" ? rules : [...rules, ...defaultRules];
}
