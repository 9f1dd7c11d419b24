import { createWriteStream, type WriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { UsageError } from "./io.js";

/** An opened `-o FILE`: the stream to write to and how many input lines it already answers. */
export interface OutputFile {
  stream: WriteStream;
  /** Complete lines kept from an earlier run (`--resume`); 0 for a fresh file. */
  kept: number;
}

const SCAN_CHUNK = 1024 * 1024;

/**
 * Opens `-o FILE`. Without `resume` the file is created or emptied. With `resume` the complete
 * lines already in it (each ended by `\n`) are kept and a torn last line (an interrupted write) is
 * cut off, so the run can continue at input line `kept` and the finished file is byte-identical
 * to an uninterrupted run's: output line i always answers input line i. A missing file resumes
 * from 0. The scan reads the file once in 1 MiB pieces (constant memory, however long it is).
 * A file that cannot be opened is a usage error (exit status 2) before any input is read.
 *
 * @example
 * ```ts
 * const { stream, kept } = await openOutputFile("out.txt", true); // skip the first `kept` inputs
 * ```
 */
export async function openOutputFile(path: string, resume: boolean): Promise<OutputFile> {
  let kept = 0;
  try {
    if (resume) kept = await cutToCompleteLines(path);
    const stream = createWriteStream(path, { flags: resume ? "a" : "w" });
    // A write error (ENOSPC, EIO) stays in stream.errored for the run to report as exit status 74;
    // without a listener it would be thrown as an uncaught 'error' event instead.
    stream.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      stream.once("open", () => resolve());
      stream.once("error", reject);
    });
    return { stream, kept };
  } catch (cause) {
    throw new UsageError(`cannot write -o file '${path}': ${(cause as Error).message}`);
  }
}

/**
 * Counts the `\n`-ended lines of `path` and truncates whatever follows the last one (a torn line
 * of an interrupted or failed write); a missing file has 0. Truncating needs no free space, so
 * this works on the full disk that stopped the run.
 *
 * @example
 * ```ts
 * const resumeAt = await cutToCompleteLines("out.txt");
 * ```
 */
export async function cutToCompleteLines(path: string): Promise<number> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r+");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return 0;
    throw error;
  }
  try {
    const buffer = Buffer.allocUnsafe(SCAN_CHUNK);
    let lines = 0;
    let end = 0; // just past the last \n seen
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, SCAN_CHUNK, position);
      if (bytesRead === 0) break;
      for (let i = buffer.indexOf(10); i !== -1 && i < bytesRead; i = buffer.indexOf(10, i + 1)) {
        lines++;
        end = position + i + 1;
      }
      position += bytesRead;
    }
    if (end < position) await handle.truncate(end);
    return lines;
  } finally {
    await handle.close();
  }
}

/**
 * Ends an output file's stream and waits until its bytes are handed to the system, so the exit
 * status is only returned once the file is complete.
 *
 * @example
 * ```ts
 * await closeOutputFile(file.stream);
 * ```
 */
export function closeOutputFile(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    // A stream that already failed has nothing left to flush; its error is the caller's to report.
    if (stream.destroyed) return resolve();
    const onError = (error: Error) => reject(error);
    stream.once("error", onError);
    stream.end(() => {
      stream.off("error", onError);
      if (stream.errored != null) reject(stream.errored);
      else resolve();
    });
  });
}
