import { Worker } from "node:worker_threads";
import type { OutputFormat } from "./format-flag.js";
import { type CliIo, writeOut } from "./io.js";
import { isRawLines } from "./line-splitter.js";
import type { NormalizeRecipe } from "./normalize-flags.js";
import type { BatchReply, BatchRequest, WorkerSetup } from "./offline-worker.js";
import type { ProgressSink } from "./progress.js";
import type { BlockBatch } from "./read-lines.js";

/** Batches in flight per worker: one being worked on, one queued so the worker never idles. */
const IN_FLIGHT_PER_WORKER = 2;

/**
 * Offline canonicalization on `workers` threads. Batches go to the least busy worker; replies are
 * written in input order. At most `2 × workers` batches are in flight or waiting to be written, and
 * no batch is sent while a write waits for stdout to drain, so memory stays bounded by the batch
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
  workers: number,
  io: CliIo,
  run: { base: number; progress: ProgressSink },
  format: OutputFormat = "url",
): Promise<boolean> {
  const setup: WorkerSetup = { recipe, json, format };
  const pool = Array.from({ length: workers }, () => ({
    worker: new Worker(new URL("./offline-worker.js", import.meta.url), { workerData: setup }),
    busy: 0,
  }));
  const replies = new Map<number, BatchReply>();
  const owner = new Map<number, (typeof pool)[number]>();
  const lineCounts = new Map<number, number>();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  for (const slot of pool) {
    slot.worker.on("message", (reply: BatchReply) => {
      replies.set(reply.seq, reply);
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
  // Waits for a reply (or a worker failure), then writes every reply that is next in order.
  const writeReady = async () => {
    if (failure === undefined && !replies.has(written))
      await new Promise<void>((resolve) => (wake = resolve));
    if (failure !== undefined) throw failure;
    for (let reply = replies.get(written); reply !== undefined; reply = replies.get(written)) {
      replies.delete(written);
      const slot = owner.get(written);
      owner.delete(written);
      if (slot !== undefined) slot.busy--;
      const count = lineCounts.get(written) ?? 0;
      lineCounts.delete(written);
      written++;
      if (reply.failures > 0) failed = true;
      if (reply.err !== "") await writeOut(io.stderr, reply.err);
      await writeOut(io.stdout, reply.out);
      run.progress.add(count, reply.failures);
    }
  };

  try {
    let base = run.base;
    for await (const { blocks, lines } of batches) {
      while (sent - written >= workers * IN_FLIGHT_PER_WORKER) await writeReady();
      let slot = pool[0] as (typeof pool)[number];
      for (const candidate of pool) if (candidate.busy < slot.busy) slot = candidate;
      slot.busy++;
      owner.set(sent, slot);
      lineCounts.set(sent, lines);
      const request: BatchRequest = { seq: sent, base, blocks };
      const transfer: ArrayBuffer[] = [];
      for (const block of blocks) if (isRawLines(block)) transfer.push(block.raw.buffer as ArrayBuffer);
      slot.worker.postMessage(request, transfer);
      sent++;
      base += lines;
    }
    while (written < sent) await writeReady();
  } finally {
    for (const slot of pool) slot.worker.removeAllListeners("exit");
    await Promise.all(pool.map((slot) => slot.worker.terminate()));
  }
  return failed;
}
