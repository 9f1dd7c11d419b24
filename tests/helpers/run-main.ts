import { Readable, Writable } from "node:stream";
import { main } from "../../src/cli/main.js";
import type { CliRun } from "./run-cli.js";
import { testEnv } from "./run-cli.js";

// A run in this process never reads or writes the real ~/.cache: the default cache directory is
// the test's own, as for the spawned binary (run-cli.ts).
process.env.XDG_CACHE_HOME = testEnv.XDG_CACHE_HOME;

class Collected extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    callback();
  }
}

/**
 * Runs the command line's `main()` in this process, with `stdin` as its input and its output
 * collected: what the built binary would print and the status it would exit with, for a test
 * whose point is the arguments and the output (a flag's effect, a usage error), not the process.
 * A test about exit codes set by the process itself, signals, terminals, stdin as a file or
 * output to a full disk spawns the binary (runCli). Each spawned run costs ~0.2 CPU-s of Node
 * start-up; this costs the command's own work. Offline runs and usage errors only: a
 * network-mode run belongs in its own process (its client, its cache, its signals).
 *
 * @example
 * ```ts
 * const r = await runMain(["--offline", "--default-scheme", "ftp", "a.test"]);
 * r.code; // 2
 * ```
 */
export async function runMain(args: readonly string[], stdin = ""): Promise<CliRun> {
  const stdout = new Collected();
  const stderr = new Collected();
  const code = await main(args, { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
