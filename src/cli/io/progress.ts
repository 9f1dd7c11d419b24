import { Writable } from "node:stream";

/** What a run reports to its progress display, batch by batch, in input order. */
export interface ProgressSink {
  /**
   * Where the run's stderr text goes while the display is up: printed above the progress line at
   * its next redraw, instead of being torn through it. Without a display, the real stderr.
   */
  readonly stderr: Writable | undefined;
  /** `lines` more inputs written, `failures` of them failed. */
  add(lines: number, failures: number): void;
  /** The number of inputs, once known (counted from an input file while the run goes). */
  setTotal(total: number): void;
  /** Draws the final state and releases the terminal line. */
  stop(): void;
}

/** A display that shows nothing: stderr is not a terminal, or `--no-progress`. */
export const NO_PROGRESS: ProgressSink = { stderr: undefined, add() {}, setTotal() {}, stop() {} };

/**
 * Whether to show progress: `--progress` forces it, `--no-progress` turns it off, and by default
 * it shows when stderr is a terminal (a pipe or a log file gets no redraw sequences) and the
 * output is not that terminal too (redrawing the line would tear through the results printed on
 * it): `canonurl -o out.txt < in.txt` or `canonurl < in.txt > out.txt` at a terminal.
 *
 * @example
 * ```ts
 * wantsProgress(undefined, undefined, process.stderr, outputFile); // true at a terminal
 * ```
 */
export function wantsProgress(
  on: boolean | undefined,
  off: boolean | undefined,
  stderr: Writable,
  output: Writable,
): boolean {
  if (on === true) return true;
  if (off === true) return false;
  return (stderr as { isTTY?: boolean }).isTTY === true && (output as { isTTY?: boolean }).isTTY !== true;
}

/**
 * The progress line on stderr, drawn by cli-progress (redraw rate, cursor and line handling, and
 * the ETA estimate are its job): done inputs, the total when it is known, the rate over this
 * run, failures and the ETA. `start` is where a resumed run begins (its kept lines), so done and
 * ETA count from there while the rate counts only this run's work. The library loads only
 * when a display is wanted, so a run without one does not pay for it.
 *
 * @example
 * ```ts
 * const progress = await createProgress(process.stderr, { start: 0 });
 * progress.add(1000, 2);
 * progress.stop();
 * ```
 */
export async function createProgress(
  stream: Writable,
  init: { start: number; total?: number | undefined },
): Promise<ProgressSink> {
  const { default: cliProgress } = await import("cli-progress");
  const startedAt = Date.now();
  let failures = 0;
  let total = init.total;
  // A MultiBar holding one bar, for its log(): failure reports land above the progress line.
  const display = new cliProgress.MultiBar({
    stream: stream as NodeJS.WritableStream,
    // Forced with --progress onto a pipe or file: plain lines at this schedule, not redraws.
    noTTYOutput: true,
    notTTYSchedule: 1000,
    fps: 10,
    hideCursor: true,
    barsize: 20,
    etaBuffer: 50,
    format: (options, params) => {
      const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
      const rate = Math.round((params.value - init.start) / seconds);
      const failed = `${failures} failed`;
      if (total === undefined) return `${params.value} done | ${rate}/s | ${failed}`;
      const bar = cliProgress.Format.BarFormat(params.progress, options);
      const eta = cliProgress.Format.TimeFormat(params.eta, options, 1);
      return `${bar} ${params.value}/${total} done | ${rate}/s | ${failed} | ETA ${eta}`;
    },
  });
  // cli-progress needs a positive total for its ratio; an unknown total reads as "no bar".
  const bar = display.create(total ?? Math.max(init.start, 1), init.start);
  let value = init.start;
  // Log text waits for the next redraw; stop() flushes it with one last redraw, but only when
  // some is waiting, so a display on a pipe does not print its final line twice.
  let waitingLog = false;
  display.on("redraw-pre", () => {
    waitingLog = false;
  });
  return {
    stderr: new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        display.log(String(chunk));
        waitingLog = true;
        done();
      },
    }),
    add(lines, failed) {
      failures += failed;
      value += lines;
      if (total === undefined && value > bar.getTotal()) bar.setTotal(value);
      bar.update(value);
    },
    setTotal(n) {
      total = n;
      bar.setTotal(n);
    },
    stop() {
      bar.update(value);
      if (waitingLog) display.update();
      display.stop();
    },
  };
}
