import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];
let hooked = false;

/**
 * Makes a new directory `<tmpdir>/<prefix>XXXXXX` that is removed, with everything in it, when
 * this test process exits (however its tests ended; a SIGKILL aside). Every test file runs in a
 * process of its own, so nothing a file made outlives it: before this, each full `npm test` left
 * ~40 directories in /tmp and 9,600 had piled up. `scripts/run-tests.mjs` gives the run a private
 * TMPDIR and fails it when anything is left there.
 *
 * @example
 * ```ts
 * const dir = tempDir("canonurl-resume-"); // gone when the file's process exits
 * writeFileSync(join(dir, "in.txt"), "http://a.test/\n");
 * ```
 */
export function tempDir(prefix: string): string {
  if (!hooked) {
    hooked = true;
    process.on("exit", removeTempDirs);
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Removes every directory {@link tempDir} made so far (also run at exit); for a test that wants
 * its directories gone before the process ends.
 *
 * @example
 * ```ts
 * after(removeTempDirs);
 * ```
 */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
