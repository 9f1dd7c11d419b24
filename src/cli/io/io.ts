import type { Readable, Writable } from "node:stream";

/** The streams a CLI command reads and writes; injected so tests can run commands in-process too. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/**
 * Exit status: 0 every input succeeded, 1 some failed (each reported), 2 usage error, 74 the output
 * could not be written (EX_IOERR of BSD sysexits.h: a full disk, an I/O error); 130 and 143 stopped
 * by SIGINT and SIGTERM (128 + the signal number, as a shell reports a killed process).
 */
export type ExitCode = 0 | 1 | 2 | 74 | 130 | 143;

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

// Streams whose complete lines are counted as the system accepts them (see trackLines).
const counted = new WeakMap<Writable, { lines: number }>();

/**
 * Counts, from now on, the lines of `stream` that the system accepted (a write whose callback
 * reported no error), so a run stopped by a write error can say which input a resumed run starts
 * at. Only writes made through {@link writeOut} are counted.
 *
 * @example
 * ```ts
 * const tally = trackLines(process.stdout);
 * await writeOut(process.stdout, "a\nb\n"); // tally.lines is 2 once the system took both
 * ```
 */
export function trackLines(stream: Writable): { readonly lines: number } {
  const known = counted.get(stream);
  if (known !== undefined) return known;
  const tally = { lines: 0 };
  counted.set(stream, tally);
  return tally;
}

function newlines(text: string | Uint8Array): number {
  let n = 0;
  if (typeof text === "string") for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  else for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Whether `error` is a failure to write the output itself (a full disk, an I/O error), as opposed
 * to its reader going away (EPIPE), which ends a run quietly.
 *
 * @example
 * ```ts
 * if (isOutputWriteFailure(stream.errored)) return 74;
 * ```
 */
export function isOutputWriteFailure(error: unknown): error is Error {
  return error instanceof Error && !isClosedOutputError(error) && !(error instanceof OutputClosedError);
}

/**
 * Writes `text` and waits for the stream to drain when its buffer is full, so a long stream keeps
 * constant memory instead of queueing every line. Rejects with {@link OutputClosedError} when the
 * stream is already gone or goes away while waiting (a closed pipe never drains), and with the
 * stream's own error when it failed otherwise (ENOSPC, EIO): that is lost output, not a reader
 * that left (issue 23).
 */
export function writeOut(stream: Writable, text: string | Uint8Array): Promise<void> | undefined {
  if (stream.destroyed || stream.writableEnded) {
    const failure = stream.errored;
    return Promise.reject(isOutputWriteFailure(failure) ? failure : new OutputClosedError());
  }
  const tally = counted.get(stream);
  const accepted =
    tally === undefined
      ? stream.write(text)
      : stream.write(text, (error) => {
          if (error == null) tally.lines += newlines(text);
        });
  if (accepted) return undefined;
  return new Promise((resolve, reject) => {
    const settle = (error?: unknown) => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      stream.off("error", onError);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => settle();
    const onClose = () =>
      settle(isOutputWriteFailure(stream.errored) ? stream.errored : new OutputClosedError());
    const onError = (error: unknown) =>
      settle(isClosedOutputError(error) ? new OutputClosedError() : (error as Error));
    stream.on("drain", onDrain);
    stream.on("close", onClose);
    stream.on("error", onError);
  });
}
