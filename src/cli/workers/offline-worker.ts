// The body of one `--workers` thread: builds the normalize options from the same recipe the main
// thread checked (its first message), then answers each batch with formatOfflineBatch, the function the single-threaded
// run calls, so both print the same bytes.
import { parentPort } from "node:worker_threads";
import type { OutputFormat } from "../flags/format-flag.js";
import { type NormalizeRecipe, resolveRecipe } from "../flags/normalize-flags.js";
import { decodeLines, type InputLine, isRawLines, type LineBlock } from "../io/line-splitter.js";
import { formatOfflineBatch } from "./offline-batch.js";

/** What the main thread sends: batch number `seq`, whose first line is input `base`. */
export interface BatchRequest {
  seq: number;
  base: number;
  blocks: LineBlock[];
}

/**
 * What a worker answers: the batch's stdout as UTF-8 bytes, transferred (the main thread writes
 * them as they are, with no copy or encoding of its own), its stderr text and how many inputs failed.
 */
export interface BatchReply {
  seq: number;
  out: Uint8Array;
  err: string;
  failures: number;
}

/** What a worker posts once, when it has loaded and can take batches. */
export interface WorkerReady {
  ready: true;
}

/** Every message a worker posts. */
export type WorkerMessage = BatchReply | WorkerReady;

/** The first message a worker gets: the options it canonicalizes with. */
export interface WorkerSetup {
  recipe: NormalizeRecipe;
  json: boolean;
  format: OutputFormat;
}

if (parentPort !== null) {
  const port = parentPort;
  const encoder = new TextEncoder();
  // The first message is the setup: a worker may be started before the flags are read (see
  // worker-prestart.ts), so it loads its modules first and learns its options afterwards.
  let answer: ((request: BatchRequest) => void) | undefined;
  port.on("message", (message: WorkerSetup | BatchRequest) => {
    if (answer !== undefined) {
      answer(message as BatchRequest);
      return;
    }
    const { recipe, json, format } = message as WorkerSetup;
    const options = resolveRecipe(recipe);
    answer = ({ seq, base, blocks }) => {
      const lines: InputLine[] = [];
      for (const block of blocks) {
        if (isRawLines(block)) decodeLines(block, lines);
        else lines.push(block);
      }
      const { out, err, failures } = formatOfflineBatch(lines, base, options, json, format);
      // TextEncoder gives the bytes their own ArrayBuffer (Buffer.from may hand out its shared
      // pool), so transferring it detaches nothing else.
      const bytes = encoder.encode(out);
      const reply: BatchReply = { seq, out: bytes, err, failures };
      port.postMessage(reply, [bytes.buffer]);
    };
    // Until this arrives the main thread canonicalizes every batch itself: a worker still loading
    // would hold its batches back while the main thread's later output waited for them.
    const ready: WorkerReady = { ready: true };
    port.postMessage(ready);
  });
}
