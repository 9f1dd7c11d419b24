import type { Readable } from "node:stream";
import { UsageError } from "./io.js";
import {
  decodeLines,
  type InputLine,
  isRawLines,
  type LineBlock,
  LineSplitter,
  type RawLines,
} from "./line-splitter.js";
import { stdinChunks } from "./stdin-chunks.js";

/**
 * How many argument inputs form one batch (stdin batches are one read each, at most 64 KiB).
 *
 * @example
 * ```ts
 * Math.ceil(positionals.length / ARGUMENT_BATCH); // the batches of a run over URL arguments
 * ```
 */
export const ARGUMENT_BATCH = 1000;

/**
 * Whether a command reads stdin: no positional arguments, or the lone argument `-`. A `-` among
 * other arguments is a usage error: it would be ambiguous whether it is a URL or the input.
 *
 * @example
 * ```ts
 * readsStdin(["-"]); // true
 * readsStdin(["https://a.test/"]); // false
 * ```
 */
export function readsStdin(args: readonly string[]): boolean {
  if (args.length === 0 || (args.length === 1 && args[0] === "-")) return true;
  if (args.includes("-")) throw new UsageError("'-' (read stdin) must be the only input argument");
  return false;
}

/**
 * The inputs of a command in batches: its positional arguments when there are any (`-` alone
 * means stdin), else stdin split by {@link LineSplitter} (streamed: constant memory however long
 * the input; one batch per read, see {@link stdinChunks}). A batch never is empty. Batches spare the offline path a
 * promise per line.
 *
 * @example
 * ```ts
 * for await (const batch of readInputBatches([], process.stdin)) console.log(batch.length);
 * ```
 */
export async function* readInputBatches(
  args: readonly string[],
  stdin: Readable,
): AsyncGenerator<InputLine[]> {
  if (!readsStdin(args)) {
    for (let i = 0; i < args.length; i += ARGUMENT_BATCH) yield args.slice(i, i + ARGUMENT_BATCH);
    return;
  }
  const splitter = new LineSplitter();
  for await (const chunk of stdinChunks(stdin)) {
    const lines: InputLine[] = [];
    splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer), lines);
    if (lines.length > 0) yield lines;
  }
  const last: InputLine[] = [];
  splitter.end(last);
  if (last.length > 0) yield last;
}

/** A batch of {@link readInputBlocks}: its blocks and how many input lines they hold. */
export interface BlockBatch {
  blocks: LineBlock[];
  lines: number;
}

/**
 * The inputs of a command as {@link readInputBatches} reads them, but with the lines a stdin
 * read holds whole left as bytes ({@link LineSplitter.pushBlocks}), for `--workers`: the worker
 * threads decode and split them, and the main thread only finds the line ends.
 *
 * @example
 * ```ts
 * for await (const { blocks, lines } of readInputBlocks([], process.stdin)) console.log(lines);
 * ```
 */
export async function* readInputBlocks(args: readonly string[], stdin: Readable): AsyncGenerator<BlockBatch> {
  if (!readsStdin(args)) {
    for (let i = 0; i < args.length; i += ARGUMENT_BATCH) {
      const blocks = args.slice(i, i + ARGUMENT_BATCH);
      yield { blocks, lines: blocks.length };
    }
    return;
  }
  const splitter = new LineSplitter();
  for await (const chunk of stdinChunks(stdin)) {
    const blocks: LineBlock[] = [];
    splitter.pushBlocks(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer), blocks);
    if (blocks.length > 0) yield { blocks, lines: countLines(blocks) };
  }
  const last: LineBlock[] = [];
  splitter.end(last);
  if (last.length > 0) yield { blocks: last, lines: last.length };
}

function countLines(blocks: readonly LineBlock[]): number {
  let n = 0;
  for (const block of blocks) n += isRawLines(block) ? block.count : 1;
  return n;
}

/**
 * {@link readInputBatches} one line at a time, for the commands that take lines singly.
 *
 * @example
 * ```ts
 * for await (const line of readInputs(["https://a.test/"], process.stdin)) console.log(line);
 * ```
 */
export async function* readInputs(args: readonly string[], stdin: Readable): AsyncGenerator<InputLine> {
  for await (const batch of readInputBatches(args, stdin)) yield* batch;
}

/**
 * `batches` without their first `n` lines: a resumed run (`--resume`) reads and drops the inputs
 * its output file already answers, splitting them exactly as the first run did.
 *
 * @example
 * ```ts
 * for await (const batch of skipLines(readInputBatches([], process.stdin), kept)) run(batch);
 * ```
 */
export async function* skipLines(
  batches: AsyncIterable<InputLine[]>,
  n: number,
): AsyncGenerator<InputLine[]> {
  let left = n;
  for await (const batch of batches) {
    if (left === 0) yield batch;
    else if (batch.length <= left) left -= batch.length;
    else {
      yield batch.slice(left);
      left = 0;
    }
  }
}

/**
 * {@link skipLines} for {@link readInputBlocks}: whole runs of raw lines are dropped undecoded;
 * the run that holds the first kept line is decoded and cut there.
 *
 * @example
 * ```ts
 * for await (const batch of skipBlocks(readInputBlocks([], process.stdin), kept)) send(batch);
 * ```
 */
export async function* skipBlocks(batches: AsyncIterable<BlockBatch>, n: number): AsyncGenerator<BlockBatch> {
  let left = n;
  for await (const batch of batches) {
    if (left === 0) {
      yield batch;
      continue;
    }
    if (batch.lines <= left) {
      left -= batch.lines;
      continue;
    }
    const blocks: LineBlock[] = [];
    for (const block of batch.blocks) {
      const count = isRawLines(block) ? block.count : 1;
      if (left === 0) blocks.push(block);
      else if (count <= left) left -= count;
      else {
        const lines: InputLine[] = [];
        decodeLines(block as RawLines, lines);
        blocks.push(...lines.slice(left));
        left = 0;
      }
    }
    yield { blocks, lines: countLines(blocks) };
  }
}
