// The body of one `--workers` thread: builds the normalize options from the same recipe the main
// thread checked, then answers each batch with formatOfflineBatch, the function the single-threaded
// run calls, so both print the same bytes.
import { parentPort, workerData } from "node:worker_threads";
import type { OutputFormat } from "./format-flag.js";
import type { InputLine } from "./line-splitter.js";
import { type NormalizeRecipe, resolveRecipe } from "./normalize-flags.js";
import { type BatchOutput, formatOfflineBatch } from "./offline-batch.js";

/** What the main thread sends: batch number `seq`, whose first line is input `base`. */
export interface BatchRequest {
  seq: number;
  base: number;
  lines: InputLine[];
}

/** What a worker answers. */
export interface BatchReply extends BatchOutput {
  seq: number;
}

/** The data a worker starts with. */
export interface WorkerSetup {
  recipe: NormalizeRecipe;
  json: boolean;
  format: OutputFormat;
}

if (parentPort !== null) {
  const port = parentPort;
  const { recipe, json, format } = workerData as WorkerSetup;
  const options = resolveRecipe(recipe);
  port.on("message", ({ seq, base, lines }: BatchRequest) => {
    const reply: BatchReply = { seq, ...formatOfflineBatch(lines, base, options, json, format) };
    port.postMessage(reply);
  });
}
