import { parseArgs } from "node:util";
import type { ResolvedNormalizeOptions } from "../pipeline/resolve-normalize-options.js";
import { type OutputFormat, outputFormatFromFlag } from "./format-flag.js";
import { type CliIo, type ExitCode, UsageError, writeOut } from "./io.js";
import type { InputLine } from "./line-splitter.js";
import { NETWORK_FLAGS, networkOptionsFromFlags, runNetworkMode } from "./network-mode.js";
import {
  checkOptions,
  NORMALIZE_FLAGS,
  normalizeOptionsFromRecipe,
  readNormalizeRecipe,
} from "./normalize-flags.js";
import { formatOfflineBatch } from "./offline-batch.js";
import { runOfflineWorkers } from "./offline-workers.js";
import { readInputBatches, readsStdin } from "./read-lines.js";
import { needsStdinHint, STDIN_HINT } from "./stdin-hint.js";
import { USAGE } from "./usage.js";
import { packageVersion } from "./version.js";

/** The most `--workers` accepted: past the cores of any machine this runs on, threads only add overhead. */
export const MAX_WORKERS = 64;

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
      ...NETWORK_FLAGS,
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
  const format = outputFormatFromFlag(values.format);
  if (format !== "url" && !values.offline) throw new UsageError(`--format ${format} needs --offline`);
  const network = values.offline ? undefined : networkOptionsFromFlags(values);
  const fromStdin = readsStdin(positionals);
  if (needsStdinHint(fromStdin, io.stdin)) await writeOut(io.stderr, STDIN_HINT);
  const batches = readInputBatches(positionals, io.stdin);
  const json = values.json === true;
  if (network !== undefined) {
    const flags = { json, concurrency: network.concurrency };
    return runNetworkMode(lines(batches), { ...options, ...network.options }, flags, io);
  }
  const failed =
    workers === 1
      ? await runOffline(batches, resolved, json, io, format)
      : await runOfflineWorkers(batches, recipe, json, workers, io, format);
  return failed ? 1 : 0;
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
  format: OutputFormat,
): Promise<boolean> {
  let failed = false;
  let base = 0;
  for await (const batch of batches) {
    const output = formatOfflineBatch(batch, base, options, json, format);
    base += batch.length;
    if (output.failed) failed = true;
    if (output.err !== "") await writeOut(io.stderr, output.err);
    await writeOut(io.stdout, output.out);
  }
  return failed;
}
