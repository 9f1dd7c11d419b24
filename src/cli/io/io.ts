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
 * The reader of an output went away (`canonurl … | head -1`): the run stops quietly, exit status 0,
 * the way `cat` and `grep` end when their reader is done.
 *
 * @example
 * ```ts
 * if (error instanceof OutputClosedError) return 0;
 * ```
 */
export class OutputClosedError extends Error {
  override name = "OutputClosedError";
}

/**
 * Whether `error` says the stream's reader is gone: EPIPE from the pipe, or a write after the
 * stream was destroyed by that EPIPE.
 *
 * @example
 * ```ts
 * stdout.on("error", (e) => { if (isClosedOutputError(e)) stop(); });
 * ```
 */
export function isClosedOutputError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || code === "ERR_STREAM_WRITE_AFTER_END";
}

/**
 * Writes `text` and waits for the stream to drain when its buffer is full, so a long stream keeps
 * constant memory instead of queueing every line. Rejects with {@link OutputClosedError} when the
 * stream is already gone or goes away while waiting (a closed pipe never drains).
 */
export function writeOut(stream: Writable, text: string | Uint8Array): Promise<void> | undefined {
  if (stream.destroyed || stream.writableEnded) return Promise.reject(new OutputClosedError());
  if (stream.write(text)) return undefined;
  return new Promise((resolve, reject) => {
    const settle = (error?: unknown) => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      stream.off("error", onError);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => settle();
    const onClose = () => settle(new OutputClosedError());
    const onError = (error: unknown) =>
      settle(isClosedOutputError(error) ? new OutputClosedError() : (error as Error));
    stream.on("drain", onDrain);
    stream.on("close", onClose);
    stream.on("error", onError);
  });
}
