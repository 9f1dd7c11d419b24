import { isRuleError } from "../errors/guards.js";
import { runCanonicalize } from "./canonicalize-command.js";
import { runClassify } from "./classify-command.js";
import { runExplain } from "./explain-command.js";
import { type CliIo, type ExitCode, UsageError } from "./io.js";
import { runServe } from "./serve-command.js";

/**
 * Runs the command line with `argv` (without node and the script) and returns the exit status.
 * Subcommands: `classify`, `explain`; anything else canonicalizes.
 *
 * @example
 * ```ts
 * const code = await main(["--offline", "HTTP://Example.COM/a/"], { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  try {
    const [first, ...rest] = argv;
    if (first === "classify") return await runClassify(rest, io);
    if (first === "explain") return await runExplain(rest, io);
    if (first === "serve") return await runServe(rest, io);
    return await runCanonicalize(argv, io);
  } catch (error) {
    if (isRuleError(error)) {
      // A rules file is configuration: report every problem with its path, like a usage error.
      const problems = error.problems
        .map((p) => `  ${p.path === "" ? "(document)" : p.path}: ${p.message}\n`)
        .join("");
      io.stderr.write(`canonurl: invalid domain rules (${error.problems.length}):\n${problems}`);
      return 2;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`canonurl: ${(error as Error).message}\nTry 'canonurl --help'.\n`);
      return 2;
    }
    throw error;
  }
}
