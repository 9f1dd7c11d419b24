import type { Readable, Writable } from "node:stream";

/** The streams a CLI command reads and writes; injected so tests can run commands in-process too. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/**
 * Exit status: 0 every input succeeded, 1 some failed (each reported), 2 usage error; 130 and 143
 * stopped by SIGINT and SIGTERM (128 + the signal number, as a shell reports a killed process).
 */
export type ExitCode = 0 | 1 | 2 | 130 | 143;

/** A usage problem: printed with a hint at `--help`, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * Writes `text` and waits for the stream to drain when its buffer is full, so a long stream keeps
 * constant memory instead of queueing every line.
 */
export function writeOut(stream: Writable, text: string): Promise<void> | undefined {
  if (stream.write(text)) return undefined;
  return new Promise((resolve) => stream.once("drain", resolve));
}
