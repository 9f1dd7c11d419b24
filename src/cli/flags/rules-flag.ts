import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { loadRules } from "../../node/load-rules.js";
import type { DomainRule } from "../../rules/domain-rule.js";
import { createDefaultRules } from "../../rules/index.js";
import { UsageError } from "../io/io.js";

/** The text of a `--rules FILE` and its format, read once so worker threads can compile it too. */
export interface RulesFile {
  path: string;
  text: string;
  format: "json" | "yaml";
}

/**
 * Reads `--rules FILE` (JSON by its `.json` extension, else YAML). An unreadable file is a usage
 * error (exit status 2).
 *
 * @example
 * ```ts
 * const file = await readRulesFile("my-rules.yaml"); // { path, text, format: "yaml" }
 * ```
 */
export async function readRulesFile(path: string): Promise<RulesFile> {
  try {
    const text = await readFile(path, "utf8");
    return { path, text, format: extname(path).toLowerCase() === ".json" ? "json" : "yaml" };
  } catch (cause) {
    throw new UsageError(`cannot read --rules file '${path}': ${(cause as Error).message}`);
  }
}

/**
 * Compiles a rules file. With the identity preset the file's rules are tried before the built-in
 * ones (chosen by `amazonHost`), so a user rule overrides a built-in for its domains; with rfc3986
 * (no rules by default) they are the only rules. Invalid rules raise the `RuleError` that lists
 * every problem with its path.
 *
 * @example
 * ```ts
 * const rules = rulesFromFile(await readRulesFile("my-rules.yaml"), "identity", "regional");
 * ```
 */
export function rulesFromFile(
  file: RulesFile,
  preset: string | undefined,
  amazonHost: "regional" | "com" | undefined,
): DomainRule[] {
  const rules = loadRules(file.text, file.format);
  if (preset === "rfc3986") return rules;
  return [...rules, ...createDefaultRules(amazonHost === undefined ? undefined : { amazonHost })];
}
