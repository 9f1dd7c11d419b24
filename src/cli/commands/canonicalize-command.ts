import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ResolvedNormalizeOptions } from "../../pipeline/resolve-normalize-options.js";
import type { ClientOptions } from "../../resolve/types.js";
import {
  CACHE_FLAGS,
  type CacheFlagValues,
  cacheFromFlags,
  DEFAULT_CACHE_FILE,
  defaultCacheDir,
} from "../flags/cache-flags.js";
import { DEDUPE_FLAGS, dedupeFromFlags } from "../flags/dedupe-flags.js";
import { type OutputFormat, outputFormatFromFlag } from "../flags/format-flag.js";
import { NETWORK_POLICY_FLAGS, networkPolicyFromFlags } from "../flags/network-flags.js";
import {
  checkOptions,
  NORMALIZE_FLAGS,
  normalizeOptionsFromRecipe,
  readNormalizeRecipe,
} from "../flags/normalize-flags.js";
import { isSameFile } from "../flags/same-file.js";
import { createDedupeOutput, endDedupeOutput } from "../io/dedupe-output.js";
import { inputTotal } from "../io/input-total.js";
import { type CliIo, type ExitCode, isOutputWriteFailure, UsageError, writeOut } from "../io/io.js";
import type { InputLine } from "../io/line-splitter.js";
import { closeOutputFile, cutToCompleteLines, openOutputFile } from "../io/output-file.js";
import { OutputWriteError } from "../io/output-write-error.js";
import { createProgress, NO_PROGRESS, type ProgressSink, wantsProgress } from "../io/progress.js";
import {
  ARGUMENT_BATCH,
  readInputBatches,
  readInputBlocks,
  readsStdin,
  skipBlocks,
  skipLines,
} from "../io/read-lines.js";
import { needsStdinHint, STDIN_HINT } from "../io/stdin-hint.js";
import { formatOfflineBatch } from "../workers/offline-batch.js";
import { runOfflineWorkers } from "../workers/offline-workers.js";
import { MAX_WORKERS } from "../workers/worker-prestart.js";
import { NETWORK_FLAGS, networkOptionsFromFlags, runNetworkMode } from "./network-mode.js";
import { USAGE } from "./usage.js";
import { packageVersion } from "./version.js";

/**
 * `canonurl [options] [URL...]`: canonicalizes each input, streaming in constant memory.
 *
 * @example
 * ```ts
 * await runCanonicalize(["--offline", "HTTP://Example.COM/a/"], io); // prints "http://example.com/a", returns 0
 * ```
 */
export async function runCanonicalize(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      ...NORMALIZE_FLAGS,
      offline: { type: "boolean" },
      json: { type: "boolean" },
      format: { type: "string" },
      workers: { type: "string" },
      output: { type: "string", short: "o" },
      resume: { type: "boolean" },
      progress: { type: "boolean" },
      "no-progress": { type: "boolean" },
      ...NETWORK_FLAGS,
      ...NETWORK_POLICY_FLAGS,
      ...CACHE_FLAGS,
      ...DEDUPE_FLAGS,
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
  });
  if (values.help) {
    await writeOut(io.stdout, USAGE);
    return 0;
  }
  if (values.version) {
    await writeOut(io.stdout, `${packageVersion()}\n`);
    return 0;
  }
  // Flags are checked before any input is read, so a usage error never consumes stdin.
  const recipe = await readNormalizeRecipe(values);
  const options = normalizeOptionsFromRecipe(recipe);
  const resolved = checkOptions(options);
  const workers = values.workers === undefined ? 1 : workersFlag(values.workers);
  if (values.workers !== undefined && !values.offline) {
    throw new UsageError("--workers needs --offline (network mode overlaps requests with --concurrency)");
  }
  if (values.resume === true && values.output === undefined) throw new UsageError("--resume needs -o FILE");
  const dedupe = dedupeFromFlags(values);
  if (values.progress === true && values["no-progress"] === true) {
    throw new UsageError("--progress and --no-progress contradict each other");
  }
  if (values.offline) {
    const networkOnly = [
      ...Object.keys(NETWORK_FLAGS),
      ...Object.keys(NETWORK_POLICY_FLAGS),
      ...Object.keys(CACHE_FLAGS),
    ];
    const given = networkOnly.find((flag) => (values as Record<string, unknown>)[flag] !== undefined);
    if (given !== undefined)
      throw new UsageError(`--${given} is a network-mode flag; --offline never resolves`);
  }
  const format = outputFormatFromFlag(values.format);
  if (format !== "url" && !values.offline) throw new UsageError(`--format ${format} needs --offline`);
  const network = values.offline ? undefined : networkOptionsFromFlags(values);
  // The policy flags are serve's too: one parser, so both commands read them the same way.
  const policy = values.offline ? undefined : networkPolicyFromFlags(values);
  if (network !== undefined && values.output !== undefined) refuseOutputOnCache(values.output, values);
  // Opened before the output file, so a bad --cache is a usage error that leaves FILE alone.
  const cached =
    network === undefined ? undefined : await cacheFromFlags(values, process.env, (m) => io.stderr.write(m));
  try {
    const fromStdin = readsStdin(positionals);
    const file =
      values.output === undefined ? undefined : await openOutputFile(values.output, values.resume === true);
    const base = file?.kept ?? 0;
    let progress = NO_PROGRESS;
    let code: ExitCode | undefined;
    try {
      if (wantsProgress(values.progress, values["no-progress"], io.stderr, file?.stream ?? io.stdout)) {
        progress = await createProgress(io.stderr, { start: base });
        const shown = progress;
        void inputTotal(positionals, fromStdin, io.stdin).then((n) => n === undefined || shown.setTotal(n));
      }
      if (needsStdinHint(fromStdin, io.stdin)) await writeOut(io.stderr, STDIN_HINT);
      const stderr = progress.stderr ?? io.stderr;
      const target = file?.stream ?? io.stdout;
      // A dedupe run prints through a filter: keys for --unique; for --groups the run's own --json
      // objects, which carry the inputs its groups list.
      const filtered =
        dedupe === undefined
          ? undefined
          : createDedupeOutput(target, stderr, dedupe.mode, format, dedupe.limits);
      const out: CliIo = { stdin: io.stdin, stdout: filtered ?? target, stderr };
      const json = values.json === true || dedupe?.mode === "groups";
      const run = { base, progress };
      if (network !== undefined) {
        const flags = { json, concurrency: network.concurrency };
        const inputs = lines(skipLines(readInputBatches(positionals, io.stdin), base));
        const client: ClientOptions = { ...options, ...network.options, ...policy };
        if (cached?.cache !== undefined) client.cache = cached.cache;
        if (cached?.logger !== undefined) client.logger = cached.logger;
        if (cached?.hostConcurrency !== undefined) client.hostConcurrency = cached.hostConcurrency;
        code = await runNetworkMode(inputs, client, flags, out, process, run);
      } else {
        // URL arguments come in batches of ARGUMENT_BATCH, one batch to a thread at a time: a run
        // over fewer batches than --workers never gives the other threads any work, and each one
        // started costs its boot (~0.1 s of CPU). Stdin's length is unknown: all N are started.
        const threads = fromStdin
          ? workers
          : Math.min(workers, Math.max(1, Math.ceil(positionals.length / ARGUMENT_BATCH)));
        const failed =
          threads === 1
            ? await runOffline(
                skipLines(readInputBatches(positionals, io.stdin), base),
                resolved,
                json,
                out,
                run,
                format,
              )
            : await runOfflineWorkers(
                skipBlocks(readInputBlocks(positionals, io.stdin), base),
                recipe,
                json,
                threads,
                out,
                run,
                format,
              );
        code = failed ? 1 : 0;
      }
      if (filtered !== undefined) await endDedupeOutput(filtered);
    } catch (error) {
      // A failed -o FILE surfaces as whatever the run was doing (a write, a drain): report the file.
      if (file === undefined || !isOutputWriteFailure(file.stream.errored)) throw error;
    } finally {
      progress.stop();
      if (file !== undefined) await closeOutputFile(file.stream).catch(() => undefined);
    }
    if (file !== undefined && isOutputWriteFailure(file.stream.errored)) {
      const path = values.output as string;
      const complete = await cutToCompleteLines(path);
      // A dedupe output holds keys, not one line per input: there is no input to resume from.
      throw new OutputWriteError(
        `'${path}'`,
        dedupe === undefined ? complete : undefined,
        file.stream.errored,
      );
    }
    return code as ExitCode;
  } finally {
    await cached?.cache?.close();
  }
}

// -o FILE on the cache's own file (or a file SQLite keeps beside it): the database would overwrite
// the results, and a later --resume would count its bytes as finished lines (issue 23).
function refuseOutputOnCache(output: string, values: CacheFlagValues): void {
  if (values["no-cache"] === true || (values.cache !== undefined && /^rediss?:\/\//i.test(values.cache)))
    return;
  const cache = values.cache ?? join(defaultCacheDir(process.env), DEFAULT_CACHE_FILE);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) {
    if (isSameFile(output, cache + suffix)) {
      throw new UsageError(`-o '${output}' is the cache file '${cache}${suffix}': give them different files`);
    }
  }
}

function workersFlag(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new UsageError(`--workers must be an integer from 1 to ${MAX_WORKERS}, got '${value}'`);
  }
  return n;
}

async function* lines(batches: AsyncIterable<InputLine[]>): AsyncGenerator<InputLine> {
  for await (const batch of batches) yield* batch;
}

// One batch per read of stdin, one write per batch: per-line writes and promises cost more than
// the normalization of a short URL.
async function runOffline(
  batches: AsyncIterable<InputLine[]>,
  options: ResolvedNormalizeOptions,
  json: boolean,
  io: CliIo,
  run: { base: number; progress: ProgressSink },
  format: OutputFormat,
): Promise<boolean> {
  let failed = false;
  let base = run.base;
  for await (const batch of batches) {
    const output = formatOfflineBatch(batch, base, options, json, format);
    base += batch.length;
    if (output.failures > 0) failed = true;
    if (output.err !== "") await writeOut(io.stderr, output.err);
    await writeOut(io.stdout, output.out);
    run.progress.add(batch.length, output.failures);
  }
  return failed;
}
