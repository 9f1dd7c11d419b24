import assert from "node:assert/strict";
import { Readable, Writable } from "node:stream";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { resolveRecipe } from "../../src/cli/flags/normalize-flags.js";
import { type InputLine, LineSplitter, MAX_LINE_BYTES } from "../../src/cli/io/line-splitter.js";
import { NO_PROGRESS } from "../../src/cli/io/progress.js";
import { readInputBlocks } from "../../src/cli/io/read-lines.js";
import { formatOfflineBatch } from "../../src/cli/workers/offline-batch.js";
import {
  maxPendingBatches,
  runOfflineWorkers,
  type ThreadTally,
} from "../../src/cli/workers/offline-workers.js";
import { seeded } from "../helpers/seeded.js";

// A seeded hostile input as bytes: URLs with unicode hosts and paths, invalid UTF-8, lone CRs
// (also last in a line, before a CRLF, or as a whole line), CRLF and LF endings, blank lines,
// invalid and unsupported URLs, and lines over the length limit.
function hostileInput(lines: number, seed: number): { bytes: Buffer; kinds: Map<string, number> } {
  const next = seeded(seed);
  const kinds = new Map<string, number>();
  const parts: Buffer[] = [];
  for (let i = 0; i < lines; i++) {
    const r = next();
    let kind: string;
    let line: Buffer;
    if (r < 0.4) {
      kind = "url";
      line = Buffer.from(`HTTP://Host${i % 97}.test/a/./b/../c/?utm_source=x&k=${i}#f`);
    } else if (r < 0.5) {
      kind = "unicode";
      line = Buffer.from(`https://Bücher${i % 13}.test/ß/😀/${"é".repeat(i % 5)}?q=日本&utm_medium=z`);
    } else if (r < 0.55) {
      kind = "invalid-utf8";
      line = Buffer.concat([
        Buffer.from(`http://bad${i}.test/`),
        Buffer.from([0xc3, 0x28, 0xff, 0xe2, 0x82]),
      ]);
    } else if (r < 0.62) {
      kind = "lone-cr";
      line = Buffer.from(r < 0.6 ? `http://cr${i}.test/x\ry` : "\r");
    } else if (r < 0.7) {
      kind = "invalid";
      line = Buffer.from(r < 0.66 ? `http://[bad${i}/` : `ftp://f${i}.test/`);
    } else if (r < 0.8) {
      kind = "blank";
      line = Buffer.from(r < 0.75 ? "" : " \t ");
    } else if (r < 0.9997) {
      kind = "plain";
      line = Buffer.from(`example.com/${i}/?b=2&a=1`);
    } else {
      kind = "over-long";
      line = Buffer.from(`http://huge${i}.test/${"h".repeat(MAX_LINE_BYTES)}`);
    }
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    const ending = next();
    parts.push(line, Buffer.from(ending < 0.3 ? "\r\n" : ending < 0.32 ? "\r\r\n" : "\n"));
  }
  return { bytes: Buffer.concat(parts), kinds };
}

// The bytes in reads of seeded sizes from 1 byte to 192 KiB (cutting lines and UTF-8 sequences
// anywhere); after the first read, the next waits until `ready()` holds.
function chunked(bytes: Buffer, seed: number, ready: () => boolean): Readable {
  const next = seeded(seed);
  async function* reads() {
    for (let at = 0; at < bytes.length; ) {
      const size = next() < 0.1 ? 1 + Math.floor(next() * 16) : 1 + Math.floor(next() * 192 * 1024);
      yield bytes.subarray(at, at + size);
      at += size;
      while (!ready()) await sleep(5);
    }
  }
  return Readable.from(reads(), { objectMode: false });
}

function sink(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

describe("runOfflineWorkers: the main thread and worker threads share a run", () => {
  const { bytes, kinds } = hostileInput(40_000, 0x1234);

  it("the generated input reaches every kind of line", () => {
    for (const kind of [
      "url",
      "unicode",
      "invalid-utf8",
      "lone-cr",
      "invalid",
      "blank",
      "plain",
      "over-long",
    ]) {
      assert.ok((kinds.get(kind) ?? 0) >= 5, `${kind}: ${kinds.get(kind)}`);
    }
  });

  for (const json of [false, true]) {
    it(`prints exactly the single-threaded bytes, with batches done on both kinds of thread${json ? " (--json)" : ""}`, async () => {
      // The reference: the whole input split at once and formatted as one batch on this thread.
      const splitter = new LineSplitter();
      const lines: InputLine[] = [];
      splitter.push(bytes, lines);
      splitter.end(lines);
      const options = resolveRecipe({ values: {} });
      const expected = formatOfflineBatch(lines, 0, options, json);
      assert.ok(expected.failures > 100);

      const tally: ThreadTally = { main: 0, workers: 0, ready: 0, maxPending: 0 };
      const out = sink();
      const err = sink();
      const io = {
        stdin: chunked(bytes, 0x77, () => tally.ready === 1),
        stdout: out.stream,
        stderr: err.stream,
      };
      const failed = await runOfflineWorkers(readInputBlocks([], io.stdin), { values: {} }, json, 2, io, {
        base: 0,
        progress: NO_PROGRESS,
        tally,
      });
      assert.equal(failed, true);
      assert.equal(tally.ready, 1, "the worker announced itself");
      assert.ok(tally.main > 0, `main thread batches: ${tally.main}`);
      assert.ok(tally.workers > 0, `worker batches: ${tally.workers}`);
      // Batches were pipelined (more than one held at once), and never more than the bound.
      assert.ok(tally.maxPending > 1, `at most ${tally.maxPending} held`);
      assert.ok(tally.maxPending <= maxPendingBatches(2), `${tally.maxPending} held at once`);
      assert.equal(maxPendingBatches(2), 10);
      assert.ok(out.bytes().equals(Buffer.from(expected.out)), "stdout differs");
      assert.ok(err.bytes().equals(Buffer.from(expected.err)), "stderr differs");
    });
  }
});
