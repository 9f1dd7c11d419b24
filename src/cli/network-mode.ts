import { createClient } from "../resolve/lazy-client.js";
import type { ClientOptions, Outcome } from "../resolve/types.js";
import { type CliIo, type ExitCode, UsageError, writeOut } from "./io.js";
import { errorJson, failureLine } from "./report-failure.js";

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

function formatLine(outcome: Outcome, json: boolean): { stdout: string; stderr?: string } {
  const { index, input } = outcome;
  if (outcome.ok) {
    const { url, source, chain, ruleApplied, paramsStripped, verified } = outcome.result;
    if (!json) return { stdout: `${url}\n` };
    const line = { index, input, ok: true, url, source, chain, ruleApplied, paramsStripped, verified };
    return { stdout: `${JSON.stringify(line)}\n` };
  }
  if (json)
    return { stdout: `${JSON.stringify({ index, input, ok: false, error: errorJson(outcome.error) })}\n` };
  return { stdout: "\n", stderr: failureLine(index, input, outcome.error) };
}

/**
 * Network mode of `canonurl`: resolves every input with `flags.concurrency` in flight and prints
 * one line per input in input order (a reorder window of `concurrency` results, so memory stays
 * bounded however long stdin is). A failed input prints an empty line on stdout and
 * `index<TAB>input<TAB>code: message` on stderr; with `json`, one NDJSON object per input.
 * Returns 0 when every input succeeded, 1 otherwise.
 *
 * @example
 * ```ts
 * const { options, concurrency } = networkOptionsFromFlags(values);
 * return runNetworkMode(readInputs(positionals, io.stdin), { ...normalizeOptions, ...options }, { json: false, concurrency }, io);
 * ```
 */
export async function runNetworkMode(
  inputs: AsyncIterable<string>,
  options: ClientOptions,
  flags: { json: boolean; concurrency: number },
  io: CliIo,
): Promise<ExitCode> {
  let client: ReturnType<typeof createClient>;
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

  // Holds back the next input while `window` earlier ones are unwritten: a slow first URL stalls
  // the intake instead of letting finished results pile up behind it.
  async function* gated(): AsyncGenerator<string> {
    const source = inputs[Symbol.asyncIterator]();
    let done = false;
    try {
      for (;;) {
        // Wait before pulling, so the held-back input is not even read from stdin yet.
        while (pulled - nextToWrite >= window) await new Promise<void>((resolve) => (wakeGate = resolve));
        const step = await source.next();
        if (step.done === true) {
          done = true;
          return;
        }
        pulled++;
        yield step.value;
      }
    } finally {
      if (!done) await source.return?.();
    }
  }

  try {
    for await (const outcome of client.resolveMany(gated(), { concurrency: flags.concurrency })) {
      waiting.set(outcome.index, outcome);
      for (let ready = waiting.get(nextToWrite); ready !== undefined; ready = waiting.get(nextToWrite)) {
        waiting.delete(nextToWrite);
        nextToWrite++;
        if (!ready.ok) failed = true;
        const line = formatLine(ready, flags.json);
        if (line.stderr !== undefined) await writeOut(io.stderr, line.stderr);
        await writeOut(io.stdout, line.stdout);
      }
      const wake = wakeGate as (() => void) | null;
      wakeGate = null;
      wake?.();
    }
  } finally {
    await client.close();
  }
  return failed ? 1 : 0;
}
