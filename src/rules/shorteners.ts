import { RuleError, type RuleProblem } from "../errors/rule-error.js";
import { shorteners as shortenerData } from "../generated/data.js";
import { isHostName } from "./validate-rules.js";

/**
 * Checks the parsed `data/shorteners.yaml` (`{ hosts: [...] }`) and returns its host list, frozen.
 * Throws `RuleError` with every problem's path, like a rule document.
 *
 * @example
 * ```ts
 * readShorteners({ hosts: ["bit.ly"] }); // ["bit.ly"]
 * ```
 */
export function readShorteners(value: unknown): readonly string[] {
  const problems: RuleProblem[] = [];
  const hosts = (value as { hosts?: unknown } | null)?.hosts;
  if (!Array.isArray(hosts)) problems.push({ path: "hosts", message: "required: a list of host names" });
  else
    hosts.forEach((host, i) => {
      if (typeof host !== "string" || !isHostName(host))
        problems.push({ path: `hosts[${i}]`, message: "must be a lowercase host name" });
    });
  if (problems.length > 0)
    throw new RuleError("invalid-rule", `${problems.length} problem(s) in shorteners`, { problems });
  return Object.freeze([...(hosts as string[])]);
}

/**
 * Hosts whose links only resolve over the network: no offline rule can say where `bit.ly/x`
 * leads, so the resolver follows them and normalizes the target. `youtu.be` is not here: the
 * YouTube rule reads its video id offline.
 *
 * @example
 * ```ts
 * shorteners.includes(new URL("https://bit.ly/3abc").hostname); // true
 * ```
 */
export const shorteners: readonly string[] = readShorteners(shortenerData);
