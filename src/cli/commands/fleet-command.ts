import { createReadStream } from "node:fs";
import { parseArgs } from "node:util";
import type { ClientOptions } from "../../resolve/types.js";
import { NETWORK_POLICY_FLAGS, networkPolicyFromFlags } from "../flags/network-flags.js";
import { type CliIo, type ExitCode, UsageError, writeOut } from "../io/io.js";
import { outcomeOutput } from "../io/outcome-output.js";
import { readInputs } from "../io/read-lines.js";
import { overlongError, overlongInput } from "../io/report-failure.js";
import { blankJson } from "../workers/offline-batch.js";
import { NETWORK_FLAGS, networkOptionsFromFlags } from "./network-mode.js";
import { FLEET_RESULTS_USAGE, FLEET_SUBMIT_USAGE, FLEET_USAGE, FLEET_WORK_USAGE } from "./usage.js";

const COMMON = {
  redis: { type: "string" },
  queue: { type: "string" },
  "redis-timeout": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

// After a stopped worker's drain and close, the longest the process lingers before it exits.
const EXIT_GRACE_MS = 500;

// --redis-timeout MS: how long a command waits to reach Redis (createFleet's connectTimeoutMs).
function redisTimeout(value: string | undefined): { connectTimeoutMs?: number } {
  const ms = integer(value, "redis-timeout", 1, 3_600_000);
  return ms === undefined ? {} : { connectTimeoutMs: ms };
}

function integer(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got '${value}'`);
  }
  return n;
}

function redisFlag(value: string | undefined): string {
  if (value === undefined || !/^rediss?:\/\//.test(value)) {
    throw new UsageError("fleet needs --redis redis://HOST:PORT[/DB]");
  }
  return value;
}

async function loadFleet() {
  return (await import("../../fleet/fleet.js")).createFleet;
}

/**
 * `canonurl fleet submit|work|results`: the command line of `canonurl/fleet`.
 * `submit` prints the job name; `work` runs until SIGINT/SIGTERM (then finishes its chunks);
 * `results` prints one line per input in input order (`--follow` waits for the rest), with the
 * same plain and `--json` shapes as network mode.
 *
 * @example
 * ```ts
 * await runFleet(["submit", "--redis", "redis://127.0.0.1:6379", "urls.txt"], io);
 * ```
 */
export async function runFleet(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [sub, ...args] = argv;
  if (sub === "--help" || sub === "-h" || sub === "help") {
    await writeOut(io.stdout, FLEET_USAGE);
    return 0;
  }
  try {
    if (sub === "submit") return await submit(args, io);
    if (sub === "work") return await work(args, io);
    if (sub === "results") return await results(args, io);
  } catch (error) {
    // An unreachable Redis is an answer, not a crash: one line naming the address (issue 23).
    if ((error as { code?: unknown }).code === "redis-unreachable") {
      await writeOut(io.stderr, `canonurl fleet: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
  throw new UsageError("fleet needs a subcommand: submit, work or results (see canonurl fleet --help)");
}

async function submit(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { ...COMMON, job: { type: "string" }, "chunk-size": { type: "string" } },
  });
  if (values.help === true) {
    await writeOut(io.stdout, FLEET_SUBMIT_USAGE);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError("fleet submit takes one FILE (or - for stdin)");
  const file = positionals[0];
  const source = file === undefined || file === "-" ? io.stdin : createReadStream(file);
  const chunkSize = integer(values["chunk-size"], "chunk-size", 1, 10_000);
  const { createFleet, FailedInput } = await import("../../fleet/fleet.js");
  const fleet = createFleet({
    redis: redisFlag(values.redis),
    queue: values.queue,
    ...redisTimeout(values["redis-timeout"]),
  });
  try {
    // An over-long line is never held whole: it is submitted as failed (invalid-url), its outcome
    // showing its first characters, as network mode reports it.
    async function* lines(): AsyncGenerator<string | InstanceType<typeof FailedInput>> {
      for await (const line of readInputs([], source))
        yield typeof line === "string" ? line : new FailedInput(overlongInput(line), overlongError(line));
    }
    const init: { job?: string; chunkSize?: number } = {};
    if (values.job !== undefined) init.job = values.job;
    if (chunkSize !== undefined) init.chunkSize = chunkSize;
    // submit's public type says strings; it takes a FailedInput too (fleet.ts), for this caller only.
    const { job } = await fleet.submit(lines() as AsyncIterable<string>, init).catch((error: unknown) => {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    });
    await writeOut(io.stdout, `${job}\n`);
    return 0;
  } finally {
    await fleet.close();
  }
}

async function work(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      ...COMMON,
      ...NETWORK_FLAGS,
      ...NETWORK_POLICY_FLAGS,
      "host-concurrency": { type: "string" },
      "stalled-interval": { type: "string" },
      "drain-timeout": { type: "string" },
    },
  });
  if (values.help === true) {
    await writeOut(io.stdout, FLEET_WORK_USAGE);
    return 0;
  }
  const { options, concurrency } = networkOptionsFromFlags(values);
  const client: ClientOptions = { ...options, ...networkPolicyFromFlags(values) };
  const hostLimit = integer(values["host-concurrency"], "host-concurrency", 1, 10_000);
  const stalledIntervalMs = integer(values["stalled-interval"], "stalled-interval", 100, 3_600_000);
  const drainMs = integer(values["drain-timeout"], "drain-timeout", 0, 3_600_000);
  let fleet: ReturnType<Awaited<ReturnType<typeof loadFleet>>>;
  try {
    fleet = (await loadFleet())({
      redis: redisFlag(values.redis),
      queue: values.queue,
      client,
      ...(hostLimit === undefined ? {} : { hostLimit }),
      ...(stalledIntervalMs === undefined ? {} : { stalledIntervalMs }),
      ...redisTimeout(values["redis-timeout"]),
    });
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await fleet.work({
      concurrency,
      signal: stop.signal,
      ...(drainMs === undefined ? {} : { drainMs }),
      // Once connected: on a dead Redis the --redis-timeout error is the only line (issue 23).
      onReady: () => io.stderr.write(`canonurl fleet: working (pid ${process.pid})\n`),
    });
    return 0;
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    await fleet.close();
    // The drain is over: whatever a Redis client BullMQ made for itself still retries a Redis
    // that is gone (its reconnect timers keep the process alive, measured: never ending). A
    // worker under systemd or Docker must end, so the process ends a moment after this
    // returns; the timer holds nothing alive when the loop is already empty.
    if (stop.signal.aborted) setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  }
}

async function results(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values } = parseArgs({
    args: [...args],
    options: { ...COMMON, job: { type: "string" }, json: { type: "boolean" }, follow: { type: "boolean" } },
  });
  if (values.help === true) {
    await writeOut(io.stdout, FLEET_RESULTS_USAGE);
    return 0;
  }
  if (values.job === undefined) throw new UsageError("fleet results needs --job NAME");
  const fleet = (await loadFleet())({
    redis: redisFlag(values.redis),
    queue: values.queue,
    ...redisTimeout(values["redis-timeout"]),
  });
  let failed = false;
  let count = 0;
  try {
    const outcomes = fleet.results(values.job, { follow: values.follow === true });
    const iterator = outcomes[Symbol.asyncIterator]();
    for (;;) {
      let step: IteratorResult<import("../../fleet/blank-outcome.js").FleetOutcome>;
      try {
        step = await iterator.next();
      } catch (error) {
        if (error instanceof TypeError) throw new UsageError(error.message);
        throw error;
      }
      if (step.done === true) break;
      count++;
      // A blank input line answers as canonurl answers it (the library's BlankOutcome), so `fleet
      // results` prints what a local run prints (issue 23).
      const line =
        "blank" in step.value
          ? {
              stdout: values.json === true ? blankJson(step.value.index, step.value.input) : "\n",
              failed: false,
              stderr: undefined,
            }
          : outcomeOutput(step.value.index, step.value, values.json === true);
      if (line.failed) failed = true;
      if (line.stderr !== undefined) await writeOut(io.stderr, line.stderr);
      await writeOut(io.stdout, line.stdout);
    }
    const progress = await fleet.progress(values.job);
    if (count < progress.total || progress.total === 0) {
      await writeOut(
        io.stderr,
        `canonurl fleet: ${count} of ${progress.total} inputs done so far (--follow waits for the rest)\n`,
      );
      return 1;
    }
    return failed ? 1 : 0;
  } finally {
    await fleet.close();
  }
}
