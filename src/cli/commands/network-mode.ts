import { isAbortError } from "../../errors/guards.js";
import type { Client } from "../../resolve/client.js";
import type { ClientOptions, Outcome } from "../../resolve/types.js";
import { isBlankLine } from "../../url/blank-line.js";
import { type CliIo, type ExitCode, UsageError, writeOut } from "../io/io.js";
import type { InputLine, OverlongLine } from "../io/line-splitter.js";
import { failedOutput, type LineOutput, outcomeOutput } from "../io/outcome-output.js";
import { NO_PROGRESS, type ProgressSink } from "../io/progress.js";
import { overlongError, overlongInput } from "../io/report-failure.js";
import { blankJson } from "../workers/offline-batch.js";

/**
 * The `node:util` `parseArgs` options of network mode, to spread into a command's option table.
 *
 * @example
 * ```ts
 * parseArgs({ args, options: { ...NETWORK_FLAGS, json: { type: "boolean" } } });
 * ```
 */
export const NETWORK_FLAGS = {
  concurrency: { type: "string" },
  "max-hops": { type: "string" },
  timeout: { type: "string" },
  "allow-private": { type: "boolean" },
} as const;

/** The parsed values of {@link NETWORK_FLAGS}. */
export interface NetworkFlagValues {
  concurrency?: string | undefined;
  "max-hops"?: string | undefined;
  timeout?: string | undefined;
  "allow-private"?: boolean | undefined;
}

const DEFAULT_CONCURRENCY = 8;

function integerFlag(value: string, flag: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got '${value}'`);
  }
  return n;
}

/**
 * Turns `--concurrency --max-hops --timeout --allow-private` into client options and the batch
 * concurrency. A malformed value is a `UsageError` (exit status 2) naming the flag.
 *
 * @example
 * ```ts
 * networkOptionsFromFlags({ "max-hops": "3", "allow-private": true });
 * // { options: { maxHops: 3, allowPrivateNetworks: true }, concurrency: 8 }
 * ```
 */
export function networkOptionsFromFlags(values: NetworkFlagValues): {
  options: ClientOptions;
  concurrency: number;
} {
  const options: ClientOptions = {};
  if (values["max-hops"] !== undefined) options.maxHops = integerFlag(values["max-hops"], "max-hops", 0, 100);
  if (values.timeout !== undefined) {
    options.totalTimeoutMs = integerFlag(values.timeout, "timeout", 1, 2_147_483_647);
  }
  if (values["allow-private"] === true) options.allowPrivateNetworks = true;
  const concurrency =
    values.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : integerFlag(values.concurrency, "concurrency", 1, 1000);
  return { options, concurrency };
}

// `base`: the run's first input is input `base` (a resumed run starts past its kept lines).
function formatLine(
  outcome: Outcome,
  base: number,
  json: boolean,
  overlong: OverlongLine | undefined,
): LineOutput {
  const index = base + outcome.index;
  // A blank line fails fast in resolveMany (no network) and an over-long one went in as "", only
  // to keep their index; what they print is decided here, the same way as offline.
  if (overlong !== undefined)
    return failedOutput(index, overlongInput(overlong), overlongError(overlong), json);
  if (isBlankLine(outcome.input))
    return { stdout: json ? blankJson(index, outcome.input) : "\n", failed: false };
  return outcomeOutput(index, outcome, json);
}

/** The signals that stop a run, and the exit status each gives (128 + its number). */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;

/**
 * Where a run hears SIGINT and SIGTERM: the process by default; a test passes an EventEmitter.
 *
 * @example
 * ```ts
 * const signals: SignalSource = new EventEmitter();
 * signals.emit("SIGTERM");
 * ```
 */
export interface SignalSource {
  once(event: StopSignal, listener: () => void): unknown;
  removeListener(event: StopSignal, listener: () => void): unknown;
}

/**
 * Network mode of `canonurl`: resolves every input with `flags.concurrency` in flight and prints
 * one line per input in input order (a reorder window of `concurrency` results, so memory stays
 * bounded however long stdin is). A failed input prints an empty line on stdout and
 * `index<TAB>input<TAB>code: message` on stderr; with `json`, one NDJSON object per input.
 * Returns 0 when every input succeeded, 1 otherwise.
 *
 * On SIGINT or SIGTERM it stops taking input, aborts the resolutions in flight, writes every
 * result it can in input order (the contiguous prefix of finished inputs; a finished result behind
 * an unfinished one is dropped, so the output is always exactly the first N inputs), says
 * `canonurl: stopped by SIGTERM at input N; N inputs written` on stderr and returns 130 (SIGINT)
 * or 143 (SIGTERM). A second signal gets the default action (the process ends at once).
 *
 * @example
 * ```ts
 * const { options, concurrency } = networkOptionsFromFlags(values);
 * return runNetworkMode(readInputs(positionals, io.stdin), { ...normalizeOptions, ...options }, { json: false, concurrency }, io);
 * ```
 */
export async function runNetworkMode(
  inputs: AsyncIterable<InputLine>,
  options: ClientOptions,
  flags: { json: boolean; concurrency: number },
  io: CliIo,
  signals: SignalSource = process,
  run: { base: number; progress: ProgressSink } = { base: 0, progress: NO_PROGRESS },
): Promise<ExitCode> {
  // Loaded here, not at the top: an offline run imports this file for its flags only, and the
  // resolver with undici cost 4× the offline pipeline's start-up (measured: 876 ms against 199 ms
  // to import, on the loaded 2-core machine).
  const { createClient } = await import("../../resolve/client.js");
  let client: Client;
  try {
    client = createClient(options);
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  const window = flags.concurrency;
  const waiting = new Map<number, Outcome>();
  let nextToWrite = 0;
  let pulled = 0;
  let failed = false;
  let wakeGate: (() => void) | null = null;
  const stop = new AbortController();
  let stoppedBy: StopSignal | null = null;
  const listeners = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((name) => {
    const listener = (): void => {
      if (stoppedBy !== null) return;
      stoppedBy = name;
      stop.abort(new Error(`stopped by ${name}`));
      // Stop taking input: a pending read of stdin would otherwise keep the process alive.
      io.stdin.destroy();
      const wake = wakeGate as (() => void) | null;
      wakeGate = null;
      wake?.();
    };
    signals.once(name, listener);
    return { name, listener };
  });
  const overlong = new Map<number, OverlongLine>();

  // Holds back the next input while `window` earlier ones are unwritten: a slow first URL stalls
  // the intake instead of letting finished results pile up behind it.
  async function* gated(): AsyncGenerator<string> {
    const source = inputs[Symbol.asyncIterator]();
    let done = false;
    try {
      for (;;) {
        // Wait before pulling, so the held-back input is not even read from stdin yet.
        while (pulled - nextToWrite >= window && !stop.signal.aborted)
          await new Promise<void>((resolve) => (wakeGate = resolve));
        if (stop.signal.aborted) return;
        const step = await source.next();
        if (step.done === true) {
          done = true;
          return;
        }
        const line = step.value;
        if (typeof line !== "string") overlong.set(pulled, line);
        pulled++;
        yield typeof line === "string" ? line : "";
      }
    } finally {
      if (!done) await source.return?.();
    }
  }

  // After a stop, the first input without a finished result ends the output: an aborted one is
  // not a result (a resumed run must do it again), and nothing behind it can be written in order.
  let halted = false;
  try {
    for await (const outcome of client.resolveMany(gated(), {
      concurrency: flags.concurrency,
      signal: stop.signal,
    })) {
      waiting.set(outcome.index, outcome);
      for (
        let ready = waiting.get(nextToWrite);
        ready !== undefined && !halted;
        ready = waiting.get(nextToWrite)
      ) {
        if (stoppedBy !== null && !ready.ok && isAbortError(ready.error)) {
          halted = true;
          break;
        }
        waiting.delete(nextToWrite);
        nextToWrite++;
        const line = formatLine(ready, run.base, flags.json, overlong.get(ready.index));
        overlong.delete(ready.index);
        if (line.failed) failed = true;
        if (line.stderr !== undefined) await writeOut(io.stderr, line.stderr);
        await writeOut(io.stdout, line.stdout);
        run.progress.add(1, line.failed ? 1 : 0);
      }
      const wake = wakeGate as (() => void) | null;
      wakeGate = null;
      wake?.();
    }
  } catch (error) {
    // The batch ends with AbortError once it has reported every input it took: expected here.
    if (stoppedBy === null || !isAbortError(error)) throw error;
  } finally {
    for (const { name, listener } of listeners) signals.removeListener(name, listener);
    await client.close();
  }
  const signal = stoppedBy as StopSignal | null;
  if (signal !== null) {
    await writeOut(
      io.stderr,
      `canonurl: stopped by ${signal} at input ${run.base + nextToWrite}; ${nextToWrite} inputs written\n`,
    );
    return STOP_SIGNALS[signal];
  }
  return failed ? 1 : 0;
}
