// Starts the `--workers` threads of an offline run before the main thread loads the command line:
// a worker thread takes ~0.1 s to boot and load the normalizer, and the main thread's own start-up
// (loading its modules, reading the flags and rules) takes about as long on the other core. Started
// first, the worker is ready when the first input is, instead of a tenth of a second later.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** The most `--workers` accepted: past the cores of any machine this runs on, threads only add overhead. */
export const MAX_WORKERS = 64;

/** The module a `--workers` thread runs. */
export const OFFLINE_WORKER_URL = new URL("./offline-worker.js", import.meta.url);

/** A worker thread started early, and how it ended if it did so before being taken. */
export interface StartedWorker {
  worker: Worker;
  /** The error it raised or the status it exited with, before {@link takeStartedWorkers}. */
  early: Error | undefined;
}

const started: StartedWorker[] = [];

/**
 * How many threads an argument list asks for when it is an offline canonicalizing run with
 * `--workers` 2 or more, else 1. A guess from the raw arguments (the flags are parsed and checked
 * later): a wrong guess only starts a worker that is never used and ends with the process.
 *
 * @example
 * ```ts
 * threadsWanted(["--offline", "--workers", "2"]); // 2
 * threadsWanted(["explain", "--offline", "--workers", "2"]); // 1
 * ```
 */
export function threadsWanted(argv: readonly string[]): number {
  if (["classify", "explain", "serve", "fleet"].includes(argv[0] ?? "")) return 1;
  let offline = false;
  let workers = 1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") break;
    if (arg === "--offline") offline = true;
    const value =
      arg === "--workers" ? argv[i + 1] : arg.startsWith("--workers=") ? arg.slice(10) : undefined;
    if (value !== undefined && /^\d{1,2}$/.test(value)) workers = Number(value);
  }
  return offline && workers >= 2 && workers <= MAX_WORKERS ? workers : 1;
}

/**
 * How many threads, the main one included, {@link startWorkersFor} starts early: what `argv`
 * asks for ({@link threadsWanted}), but no more than the machine's cores. Threads past the cores
 * boot no sooner for being started early (they wait for a core like the main thread), and one
 * the run never uses costs its whole boot: `--offline --workers 64 URL` burnt 7.5 s of CPU on
 * 2 cores booting 63 threads for one input (5 Dec 2026). The run starts the rest it needs.
 *
 * @example
 * ```ts
 * earlyThreads(["--offline", "--workers", "64"], 2); // 2
 * ```
 */
export function earlyThreads(argv: readonly string[], cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(threadsWanted(argv), cores));
}

/**
 * Starts the worker threads `argv` asks for ({@link earlyThreads} - 1), unreferenced: a run that
 * never takes them (a usage error, `--help`) ends as if they did not exist.
 *
 * @example
 * ```ts
 * startWorkersFor(process.argv.slice(2)); // then import the command line
 * ```
 */
export function startWorkersFor(argv: readonly string[]): void {
  for (let i = 1; i < earlyThreads(argv); i++) {
    const entry: StartedWorker = { worker: new Worker(OFFLINE_WORKER_URL), early: undefined };
    entry.worker.unref();
    entry.worker.on("error", (error) => {
      entry.early ??= error;
    });
    entry.worker.on("exit", (code) => {
      entry.early ??= new Error(`offline worker exited with status ${code}`);
    });
    started.push(entry);
  }
}

/**
 * Up to `count` of the workers {@link startWorkersFor} started, referenced again and without the
 * listeners it gave them; the caller listens from now on and checks `early`.
 *
 * @example
 * ```ts
 * const [first] = takeStartedWorkers(1);
 * ```
 */
export function takeStartedWorkers(count: number): StartedWorker[] {
  const taken = started.splice(0, count);
  for (const { worker } of taken) {
    worker.removeAllListeners("error");
    worker.removeAllListeners("exit");
    worker.ref();
  }
  return taken;
}
