import type { Writable } from "node:stream";
import { MISSING_PEER } from "../cache/load-optional.js";
import { isRuleError } from "../errors/guards.js";
import { runCanonicalize } from "./commands/canonicalize-command.js";
import { runClassify } from "./commands/classify-command.js";
import { runExplain } from "./commands/explain-command.js";
import { USAGE } from "./commands/usage.js";
import { packageVersion } from "./commands/version.js";
import {
  type CliIo,
  type ExitCode,
  isClosedOutputError,
  isOutputWriteFailure,
  OutputClosedError,
  trackLines,
  UsageError,
  writeOut,
} from "./io/io.js";
import { OutputWriteError } from "./io/output-write-error.js";
import { cutStdoutFile } from "./io/stdout-file.js";

/**
 * Runs the command line with `argv` (without node and the script) and returns the exit status.
 * Subcommands: `classify`, `explain`, `serve`, `fleet`; anything else canonicalizes.
 *
 * A reader that goes away (`canonurl … | head -1`) ends the run quietly with status 0: the write
 * error of the closed pipe (EPIPE) is caught here instead of crashing the process as an unhandled
 * `'error'` event (issue 12), and the input is no longer read. Any other write error on the output
 * (a full disk) is lost output: exit status 74 and one line on stderr naming the output, the error
 * and the input `--resume` continues from (issue 23).
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
  const written = trackLines(io.stdout);
  // Only a canonicalizing run has --resume; the other commands' output is not resumable.
  // A dedupe run (--unique, --groups) prints keys, not one line per input: nothing to resume from.
  const resumable =
    !["classify", "explain", "serve", "fleet", "help", "version"].includes(argv[0] ?? "") &&
    !argv.includes("--unique") &&
    !argv.includes("--groups");
  const stdoutFailure = async (): Promise<OutputWriteError | undefined> => {
    const failure = isOutputWriteFailure(io.stdout.errored) ? io.stdout.errored : broken;
    if (failure === undefined) return undefined;
    const file = await cutStdoutFile(io.stdout);
    const target = file === undefined ? "stdout" : `stdout ('${file.path}')`;
    return new OutputWriteError(target, resumable ? (file?.lines ?? written.lines) : undefined, failure);
  };
  try {
    let code = await dispatch(argv, io);
    // A failed synchronous write (stdout on a full disk) is emitted on the next tick: let it land
    // before the status is decided, so the last lines' loss is reported too.
    await new Promise((resolve) => setImmediate(resolve));
    const failed = await stdoutFailure();
    if (failed !== undefined) code = reportOutputFailure(failed, io);
    else if (broken !== undefined) throw broken;
    return closed ? 0 : code;
  } catch (error) {
    const failed = error instanceof OutputWriteError ? error : await stdoutFailure();
    if (failed !== undefined) return reportOutputFailure(failed, io);
    if (error instanceof OutputClosedError || (closed && broken === undefined)) return 0;
    throw error;
  } finally {
    for (const stream of outputs) stream.off("error", onError);
  }
}

function reportOutputFailure(error: OutputWriteError, io: CliIo): 74 {
  io.stderr.write(`canonurl: ${error.message}\n`);
  return 74;
}

async function printText(io: CliIo, text: string): Promise<0> {
  await writeOut(io.stdout, text);
  return 0;
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  try {
    const [first, ...rest] = argv;
    // The words alone, as git and npm take them; no DNS, no cache file (issue 23). A URL that
    // happens to be "help" is written with its scheme.
    if (first === "help" && rest.length === 0) return await printText(io, USAGE);
    if (first === "version" && rest.length === 0) return await printText(io, `${packageVersion()}\n`);
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
