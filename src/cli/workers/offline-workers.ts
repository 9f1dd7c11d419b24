import { setImmediate as yieldToEvents } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import type { OutputFormat } from "../flags/format-flag.js";
import { type NormalizeRecipe, resolveRecipe } from "../flags/normalize-flags.js";
import { type CliIo, writeOut } from "../io/io.js";
import { decodeLines, type InputLine, isRawLines } from "../io/line-splitter.js";
import type { ProgressSink } from "../io/progress.js";
import type { BlockBatch } from "../io/read-lines.js";
import { formatOfflineBatch } from "./offline-batch.js";
import type { BatchRequest, WorkerMessage, WorkerSetup } from "./offline-worker.js";
import { OFFLINE_WORKER_URL, takeStartedWorkers } from "./worker-prestart.js";

/** Batches in flight per worker: one being worked on, the rest queued so the worker never idles. */
const IN_FLIGHT_PER_WORKER = 3;

/**
 * The most batches a run of `threads` threads holds at once (sent to a worker or done, and not yet
 * written): a constant, so memory is bounded by the batch size whatever the input length.
 *
 * @example
 * ```ts
 * maxPendingBatches(2); // 10
 * ```
 */
export function maxPendingBatches(threads: number): number {
  return (IN_FLIGHT_PER_WORKER + 2) * threads;
}

/**
 * Counts a run of {@link runOfflineWorkers} keeps when given one: batches done on the main thread
 * and on workers, and workers that announced they were ready. For tests, which must know that both
 * kinds of thread did work for their byte comparisons to mean anything.
 */
export interface ThreadTally {
  main: number;
  workers: number;
  ready: number;
  /** The most batches held at once (see {@link maxPendingBatches}). */
  maxPending: number;
}

/** A batch's output, from a worker (UTF-8 bytes) or from the main thread (text). */
interface Done {
  out: Uint8Array | string;
  err: string;
  failures: number;
}

/**
 * Offline canonicalization on `threads` threads: the main thread and `threads - 1` worker threads.
 * The main thread reads, hands each batch to a ready worker with room in its queue, and
 * canonicalizes the batch itself when there is none (so it works from the first batch on, while
 * the workers still load, and no core idles). Outputs are written in input order. At most
 * {@link maxPendingBatches} batches are in flight or waiting to be written, and
 * nothing is read while a write waits for stdout to drain, so memory stays bounded by the batch
 * size (a read of stdin: at most 64 KiB plus one line) whatever the input length or the reader's
 * speed. The first input is input `run.base` of the run (a resumed run starts past its kept
 * lines). Returns whether any input failed.
 *
 * @example
 * ```ts
 * const failed = await runOfflineWorkers(readInputBlocks([], io.stdin), { values: {} }, false, 2, io, { base: 0, progress: NO_PROGRESS });
 * ```
 */
export async function runOfflineWorkers(
  batches: AsyncIterable<BlockBatch>,
  recipe: NormalizeRecipe,
  json: boolean,
  threads: number,
  io: CliIo,
  run: { base: number; progress: ProgressSink; tally?: ThreadTally },
  format: OutputFormat = "url",
): Promise<boolean> {
  const tally = run.tally ?? { main: 0, workers: 0, ready: 0, maxPending: 0 };
  const options = resolveRecipe(recipe);
  const setup: WorkerSetup = { recipe, json, format };
  const started = takeStartedWorkers(threads - 1);
  while (started.length < threads - 1)
    started.push({ worker: new Worker(OFFLINE_WORKER_URL), early: undefined });
  const pool = started.map(({ worker }) => ({ worker, ready: false, busy: 0 }));
  type Slot = (typeof pool)[number];
  const done = new Map<number, Done>();
  const owner = new Map<number, Slot>();
  const lineCounts = new Map<number, number>();
  let failure = started.find((s) => s.early !== undefined)?.early;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  for (const slot of pool) {
    slot.worker.postMessage(setup);
    slot.worker.on("message", (message: WorkerMessage) => {
      if ("ready" in message) {
        slot.ready = true;
        tally.ready++;
      } else done.set(message.seq, message);
      notify();
    });
    slot.worker.on("error", (error) => {
      failure ??= error;
      notify();
    });
    slot.worker.on("exit", (code) => {
      if (code !== 0) failure ??= new Error(`offline worker exited with status ${code}`);
      notify();
    });
  }

  let sent = 0;
  let written = 0;
  let failed = false;
  // Writes every finished batch that is next in order; with `wait`, first waits for one to be.
  const writeDone = async (wait: boolean) => {
    if (wait && failure === undefined && !done.has(written))
      await new Promise<void>((resolve) => (wake = resolve));
    if (failure !== undefined) throw failure;
    for (let batch = done.get(written); batch !== undefined; batch = done.get(written)) {
      done.delete(written);
      const slot = owner.get(written);
      owner.delete(written);
      if (slot !== undefined) slot.busy--;
      const count = lineCounts.get(written) ?? 0;
      lineCounts.delete(written);
      written++;
      if (batch.failures > 0) failed = true;
      if (batch.err !== "") await writeOut(io.stderr, batch.err);
      await writeOut(io.stdout, batch.out);
      run.progress.add(count, batch.failures);
    }
  };

  try {
    let base = run.base;
    for await (const { blocks, lines } of batches) {
      // Let the workers' replies and ready notices in: a reading that was already buffered
      // resolves without a turn of the event loop, and then a worker would look busy when it is not.
      if (pool.length > 0) await yieldToEvents();
      await writeDone(false);
      while (sent - written >= maxPendingBatches(threads)) await writeDone(true);
      let slot: Slot | undefined;
      for (const candidate of pool) {
        if (
          candidate.ready &&
          candidate.busy < IN_FLIGHT_PER_WORKER &&
          (slot === undefined || candidate.busy < slot.busy)
        )
          slot = candidate;
      }
      lineCounts.set(sent, lines);
      if (slot !== undefined) {
        slot.busy++;
        owner.set(sent, slot);
        const request: BatchRequest = { seq: sent, base, blocks };
        const transfer: ArrayBuffer[] = [];
        for (const block of blocks) if (isRawLines(block)) transfer.push(block.raw.buffer as ArrayBuffer);
        slot.worker.postMessage(request, transfer);
        tally.workers++;
      } else {
        tally.main++;
        const inputs: InputLine[] = [];
        for (const block of blocks) {
          if (isRawLines(block)) decodeLines(block, inputs);
          else inputs.push(block);
        }
        const output = formatOfflineBatch(inputs, base, options, json, format);
        // Output that must wait for a worker's earlier batch is kept as bytes: a string built
        // line by line is thousands of young objects, which every collection until it is written
        // would copy. Encoding now costs what writing the string would.
        done.set(sent, sent === written ? output : { ...output, out: Buffer.from(output.out) });
      }
      sent++;
      base += lines;
      tally.maxPending = Math.max(tally.maxPending, sent - written);
    }
    while (written < sent) await writeDone(true);
  } finally {
    for (const slot of pool) slot.worker.removeAllListeners("exit");
    await Promise.all(pool.map((slot) => slot.worker.terminate()));
  }
  return failed;
}
