import { spawn } from "node:child_process";
import { fromRoot } from "./paths.js";

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
      env: env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}
