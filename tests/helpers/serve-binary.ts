import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fromRoot } from "./paths.js";

/** A running `canonurl serve` child process. */
export interface ServedBinary {
  child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:PORT` from its `listening on` line. */
  url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Its exit code, once it exits. */
  exited: Promise<number | null>;
}

/**
 * Starts the built binary's `serve --port 0 ...args` and waits for its `listening on` line.
 *
 * @example
 * ```ts
 * const served = await startServeBinary(["--allow-resolve"]);
 * served.child.kill("SIGTERM");
 * ```
 */
export function startServeBinary(args: readonly string[]): Promise<ServedBinary> {
  const child = spawn(process.execPath, [fromRoot("dist/cli/bin.js"), "serve", "--port", "0", ...args]);
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stderr);
      if (match?.[1] !== undefined) resolve({ child, url: match[1], stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code} before listening: ${stderr}`)));
  });
}
