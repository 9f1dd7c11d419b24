import { fstat, read } from "node:fs";
import type { Readable } from "node:stream";
import { promisify } from "node:util";

const fstatAsync = promisify(fstat);
const readAsync = promisify(read);
const SCAN_CHUNK = 1024 * 1024;

/**
 * How many input lines a run has, when that can be known: the number of arguments, or the lines
 * of stdin when stdin is a regular file (`canonurl < urls.txt`), counted with positioned reads
 * that leave the stream's own reading alone; `undefined` for a pipe or a terminal. Counting a
 * file runs alongside the work (1 MiB at a time), so the progress display gets its total without
 * delaying the first result. A line is what the line splitter counts: `\n`-ended, plus a last one
 * without `\n`.
 *
 * @example
 * ```ts
 * const total = await inputTotal([], process.stdin); // 20000 for `canonurl < 20000-lines.txt`
 * ```
 */
export async function inputTotal(
  positionals: readonly string[],
  readsStdin: boolean,
  stdin: Readable,
): Promise<number | undefined> {
  if (!readsStdin) return positionals.length;
  const fd = (stdin as { fd?: unknown }).fd;
  if (typeof fd !== "number") return undefined;
  try {
    const stat = await fstatAsync(fd);
    if (!stat.isFile()) return undefined;
    const buffer = Buffer.allocUnsafe(SCAN_CHUNK);
    let lines = 0;
    let position = 0;
    let last = 10;
    while (position < stat.size) {
      const { bytesRead } = await readAsync(fd, buffer, 0, SCAN_CHUNK, position);
      if (bytesRead === 0) break;
      for (let i = buffer.indexOf(10); i !== -1 && i < bytesRead; i = buffer.indexOf(10, i + 1)) lines++;
      last = buffer[bytesRead - 1] as number;
      position += bytesRead;
    }
    return last === 10 ? lines : lines + 1;
  } catch {
    // The total only decorates the display: a file that cannot be read twice has none.
    return undefined;
  }
}
