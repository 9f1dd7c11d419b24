import type { Writable } from "node:stream";
import { MISSING_PEER } from "../cache/load-optional.js";
import { isRuleError } from "../errors/guards.js";
import { runCanonicalize } from "./commands/canonicalize-command.js";
import { runClassify } from "./commands/classify-command.js";
import { runExplain } from "./commands/explain-command.js";
import { type CliIo, type ExitCode, isClosedOutputError, OutputClosedError, UsageError } from "./io/io.js";

/**
 * Runs the command line with `argv` (without node and the script) and returns the exit status.
 * Subcommands: `classify`, `explain`; anything else canonicalizes.
 *
 * A reader that goes away (`canonurl … | head -1`) ends the run quietly with status 0: the write
 * error of the closed pipe (EPIPE) is caught here instead of crashing the process as an unhandled
 * `'error'` event (issue 12), and the input is no longer read.
 *
 * @example
 * ```ts
 * const code = await main(["--offline", "HTTP://Example.COM/a/"], { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  let closed = false;
  let broken: Error | undefined;
  const onError = (error: Error) => {
    if (isClosedOutputError(error)) closed = true;
    else broken ??= error;
  };
  const outputs: Writable[] = [io.stdout, io.stderr];
  for (const stream of outputs) stream.on("error", onError);
  try {
    const code = await dispatch(argv, io);
    if (broken !== undefined) throw broken;
    return closed ? 0 : code;
  } catch (error) {
    if (error instanceof OutputClosedError || (closed && broken === undefined)) return 0;
    throw error;
  } finally {
    for (const stream of outputs) stream.off("error", onError);
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  try {
    const [first, ...rest] = argv;
    if (first === "classify") return await runClassify(rest, io);
    if (first === "explain") return await runExplain(rest, io);
    // Loaded only for `serve`: Hono and the playground are no part of an offline run's start-up.
    if (first === "serve") return await (await import("./commands/serve-command.js")).runServe(rest, io);
    // Loaded only for `fleet`: BullMQ is no part of any other command's start-up.
    if (first === "fleet") return await (await import("./commands/fleet-command.js")).runFleet(rest, io);
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
    if ((error as { code?: unknown }).code === MISSING_PEER) {
      // An optional peer dependency the command needs (redis, bullmq, better-sqlite3): the message
      // names the package and the npm i command.
      io.stderr.write(`${(error as Error).message}\n`);
      return 2;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`canonurl: ${(error as Error).message}\nTry 'canonurl --help'.\n`);
      return 2;
    }
    throw error;
  }
}
