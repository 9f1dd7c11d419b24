import { spawn } from "node:child_process";
import { fromRoot } from "./paths.js";
import { tempDir } from "./temp-dir.js";

/**
 * The environment a test runs the binary in: the caller's, with the default resolution cache
 * (SQLite under $XDG_CACHE_HOME/canonurl) in a directory of this test process, so no test writes
 * to the real ~/.cache or sees another test's answers.
 */
export const testEnv: NodeJS.ProcessEnv = {
  ...process.env,
  XDG_CACHE_HOME: tempDir("canonurl-test-xdg-"),
};

/** What one run of the built binary produced. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the built `dist/cli/bin.js` with `args`, feeding `stdin` (closed at once when absent). */
export function runCli(args: readonly string[], stdin?: string, env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fromRoot("dist/cli/bin.js"), ...args], {
      // A caller's own environment still gets the test cache directory unless it names one, so no
      // run of the binary reads or writes the real ~/.cache.
      env: env === undefined ? testEnv : { XDG_CACHE_HOME: testEnv.XDG_CACHE_HOME, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    // A run may end before it has read all of its input (a usage error found mid-stream, a
    // --max-keys stop): the pipe then fails with EPIPE, which is the child's answer, not an error.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin.end(stdin ?? "");
  });
}

/**
 * The network-mode flags that let the binary reach a local server and nothing else: each of
 * `hosts` resolves to 127.0.0.1 (`--resolve`), and only that address and `port` are allowed.
 *
 * @example
 * ```ts
 * await runCli([...loopbackArgs(server.port, ["site.test"]), "--json"], `${url}\n`);
 * ```
 */
export function loopbackArgs(port: number, hosts: readonly string[]): string[] {
  const args: string[] = [];
  for (const host of hosts) args.push("--resolve", `${host}:127.0.0.1`);
  args.push("--allow-network", "127.0.0.1/32", "--allowed-port", String(port));
  return args;
}
