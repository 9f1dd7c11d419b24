import { fstatSync, readSync } from "node:fs";
import type { Readable } from "node:stream";
import { setImmediate as yieldToEvents } from "node:timers/promises";

/** How many bytes one read of a regular file takes: a stream's read size. */
export const FILE_READ_BYTES = 64 * 1024;

/**
 * The chunks of the input stream, in order. When it reads a regular file (`canonurl < urls.txt`),
 * the file is read here, synchronously, from where the stream would have started: a stream reads
 * a file on libuv's thread pool, so each 64 KiB waits until a pool thread gets a core, which on a
 * machine whose cores all run `--workers` threads is often milliseconds. A read from the page
 * cache takes microseconds on the calling thread. The event loop still turns after every chunk
 * (progress display, worker replies). Anything else (a pipe, a terminal, a test's stream) is read
 * as the stream it is.
 *
 * @example
 * ```ts
 * for await (const chunk of stdinChunks(process.stdin)) splitter.pushBlocks(chunk, blocks);
 * ```
 */
export function stdinChunks(stdin: Readable): AsyncIterable<Buffer | string> {
  const fd = (stdin as { fd?: unknown }).fd;
  if (typeof fd !== "number" || stdin.readableDidRead || !isRegularFile(fd)) return stdin;
  return fileChunks(fd);
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

async function* fileChunks(fd: number): AsyncGenerator<Buffer> {
  for (;;) {
    const buffer = Buffer.allocUnsafeSlow(FILE_READ_BYTES);
    // Position null: from the file's current offset, as the stream reads an inherited descriptor.
    const n = readSync(fd, buffer, 0, FILE_READ_BYTES, null);
    if (n === 0) return;
    yield buffer.subarray(0, n);
    await yieldToEvents();
  }
}
