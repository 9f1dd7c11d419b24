import { runCanonicalize } from "./canonicalize-command.js";
import { runClassify } from "./classify-command.js";
import { runExplain } from "./explain-command.js";
import { type CliIo, type ExitCode, UsageError } from "./io.js";

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
    return await runCanonicalize(argv, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`canonurl: ${(error as Error).message}\nTry 'canonurl --help'.\n`);
      return 2;
    }
    throw error;
  }
}
