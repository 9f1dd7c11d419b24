import { fstatSync, readlinkSync } from "node:fs";
import type { Writable } from "node:stream";
import { cutToCompleteLines } from "./output-file.js";

/**
 * After a failed write to stdout redirected to a regular file (`canonurl … > out.txt` on a full
 * disk): cuts the torn last line off that file and returns its path and complete lines, which is
 * where `-o FILE --resume` continues. Node writes such a stdout with single `write(2)` calls that
 * can land partly and still report success, so counting the writes would overstate what is there;
 * the file itself is the truth. Undefined when stdout is not a file, or the system gives no
 * `/proc/self/fd` (the caller then falls back to the lines it counted).
 *
 * @example
 * ```ts
 * const cut = await cutStdoutFile(process.stdout); // { path: "/data/out.txt", lines: 1782 }
 * ```
 */
export async function cutStdoutFile(stdout: Writable): Promise<{ path: string; lines: number } | undefined> {
  const fd = (stdout as { fd?: unknown }).fd;
  if (typeof fd !== "number") return undefined;
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const link = `/proc/self/fd/${fd}`;
    const path = readlinkSync(link);
    return { path, lines: await cutToCompleteLines(link) };
  } catch {
    return undefined;
  }
}
