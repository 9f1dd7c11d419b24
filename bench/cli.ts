// The command line's offline throughput against the library in a loop, and --workers 2 against
// --workers 1. Both run as child processes (spawnSync, stdin the file, stdout and stderr
// /dev/null), so both figures include start-up: the loop (cli-loop.ts) reads the same file,
// normalizes each line and writes the output in 64 KiB pieces, which is the least any program
// doing the command's job must do.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateCorpus } from "./corpus.js";
import type { ThreadCpu } from "./thread-cpu.js";

/** Medians of one run of the group, in milliseconds per pass over the file. */
export interface CliBenchResult {
  lines: number;
  rounds: number;
  loopMs: number;
  workers1Ms: number;
  workers2Ms: number;
  /**
   * Two `--workers 1` processes at once, each on one half of the file: what two JavaScript
   * threads with nothing shared between them do on this machine, the most `--workers 2` could.
   */
  halvesMs: number;
  /** Median CPU milliseconds per thread of `--workers 1` and `--workers 2` (see thread-cpu.ts). */
  workers1Cpu: CpuSummary;
  workers2Cpu: CpuSummary;
}

/** A run's CPU time: its main thread, its busiest other thread, and all its threads together. */
export interface CpuSummary {
  main: number;
  busiestOther: number;
  total: number;
}

const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));

const THREAD_CPU = new URL("./thread-cpu.js", import.meta.url).href;

const LOOP = fileURLToPath(new URL("./cli-loop.js", import.meta.url));

function loop(file: string): number {
  return timeChild([LOOP, file], file);
}

function cli(file: string, workers: number): number {
  return timeChild([BIN, "--offline", "--workers", String(workers)], file);
}

// Both halves started together; the time is until the later one ends (spawnSync of a shell that
// starts both and waits: a few ms of shell on top, which only lowers the ratio it gives).
function halves(first: string, second: string): number {
  const run = (f: string) => `"${process.execPath}" "${BIN}" --offline --workers 1 < "${f}" > /dev/null 2>&1`;
  const start = process.hrtime.bigint();
  // Each must exit as a run does, 0 or 1 (some corpus lines are invalid URLs), not crash.
  const script = `${run(first)} & a=$!; ${run(second)} & b=$!; wait $a; x=$?; wait $b; y=$?; [ $x -le 1 ] && [ $y -le 1 ]`;
  const r = spawnSync("sh", ["-c", script], { stdio: "ignore" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`two halves: sh exited ${r.status}: ${r.error ?? ""}`);
  return ms;
}

// One run of the command with thread-cpu.ts preloaded, for its CPU time per thread.
function cpuOf(file: string, workers: number, dir: string): CpuSummary {
  const out = join(dir, "cpu.json");
  timeChild(["--import", THREAD_CPU, BIN, "--offline", "--workers", String(workers)], file, {
    ...process.env,
    BENCH_THREAD_CPU_FILE: out,
  });
  const cpu = JSON.parse(readFileSync(out, "utf8")) as ThreadCpu;
  return {
    main: cpu.main,
    busiestOther: cpu.others[0] ?? 0,
    total: cpu.main + cpu.others.reduce((a, b) => a + b, 0),
  };
}

function medianCpu(runs: CpuSummary[]): CpuSummary {
  return {
    main: median(runs.map((r) => r.main)),
    busiestOther: median(runs.map((r) => r.busiestOther)),
    total: median(runs.map((r) => r.total)),
  };
}

function timeChild(args: string[], file: string, env: NodeJS.ProcessEnv = process.env): number {
  const input = openSync(file, "r");
  const sink = openSync("/dev/null", "w");
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: [input, sink, sink], env });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  closeSync(input);
  closeSync(sink);
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${args.join(" ")} exited ${r.status}: ${r.error ?? ""}`);
  return ms;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Runs the loop, `--workers 1`, `--workers 2` and two `--workers 1` processes on the two halves
 * over the same file, interleaved round by round in
 * a rotating order after one warm-up round, and returns the medians; then three runs of each
 * command for its CPU time per thread (Linux /proc; a separate run, so the preload costs the
 * timed runs nothing).
 *
 * @example
 * ```ts
 * const r = benchCli(500_000, 5); // r.loopMs / r.workers1Ms is the CLI's share of the loop's speed
 * ```
 */
export function benchCli(lines: number, rounds: number): CliBenchResult {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-bench-cli-"));
  const file = join(dir, "urls.txt");
  const corpus = generateCorpus(lines);
  writeFileSync(file, `${corpus.join("\n")}\n`);
  const half = Math.ceil(corpus.length / 2);
  const [first, second] = [join(dir, "first.txt"), join(dir, "second.txt")];
  writeFileSync(first, `${corpus.slice(0, half).join("\n")}\n`);
  writeFileSync(second, `${corpus.slice(half).join("\n")}\n`);
  const cases: [string, () => number][] = [
    ["loop", () => loop(file)],
    ["workers1", () => cli(file, 1)],
    ["workers2", () => cli(file, 2)],
    ["halves", () => halves(first, second)],
  ];
  const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  const cpu1: CpuSummary[] = [];
  const cpu2: CpuSummary[] = [];
  try {
    for (let round = 0; round < rounds + 1; round++) {
      for (let k = 0; k < cases.length; k++) {
        const [name, run] = cases[(round + k) % cases.length] as [string, () => number];
        const ms = run();
        if (round > 0) samples.get(name)?.push(ms);
      }
    }
    for (let round = 0; round < 3; round++) {
      cpu1.push(cpuOf(file, 1, dir));
      cpu2.push(cpuOf(file, 2, dir));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    lines,
    rounds,
    loopMs: median(samples.get("loop") ?? []),
    workers1Ms: median(samples.get("workers1") ?? []),
    workers2Ms: median(samples.get("workers2") ?? []),
    halvesMs: median(samples.get("halves") ?? []),
    workers1Cpu: medianCpu(cpu1),
    workers2Cpu: medianCpu(cpu2),
  };
}
