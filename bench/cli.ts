// The command line's offline throughput against the library in a loop, and --workers 2 against
// --workers 1. Both run as child processes (spawnSync, stdin the file, stdout and stderr
// /dev/null), so both figures include start-up: the loop (cli-loop.ts) reads the same file,
// normalizes each line and writes the output in 64 KiB pieces, which is the least any program
// doing the command's job must do.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateCorpus } from "./corpus.js";

/** Medians of one run of the group, in milliseconds per pass over the file. */
export interface CliBenchResult {
  lines: number;
  rounds: number;
  loopMs: number;
  workers1Ms: number;
  workers2Ms: number;
}

const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));

const LOOP = fileURLToPath(new URL("./cli-loop.js", import.meta.url));

function loop(file: string): number {
  return timeChild([LOOP, file], file);
}

function cli(file: string, workers: number): number {
  return timeChild([BIN, "--offline", "--workers", String(workers)], file);
}

function timeChild(args: string[], file: string): number {
  const input = openSync(file, "r");
  const sink = openSync("/dev/null", "w");
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: [input, sink, sink] });
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
 * Runs the loop, `--workers 1` and `--workers 2` over the same file, interleaved round by round in
 * a rotating order after one warm-up round, and returns the medians.
 *
 * @example
 * ```ts
 * const r = benchCli(500_000, 5); // r.loopMs / r.workers1Ms is the CLI's share of the loop's speed
 * ```
 */
export function benchCli(lines: number, rounds: number): CliBenchResult {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-bench-cli-"));
  const file = join(dir, "urls.txt");
  writeFileSync(file, `${generateCorpus(lines).join("\n")}\n`);
  const cases: [string, () => number][] = [
    ["loop", () => loop(file)],
    ["workers1", () => cli(file, 1)],
    ["workers2", () => cli(file, 2)],
  ];
  const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  try {
    for (let round = 0; round < rounds + 1; round++) {
      for (let k = 0; k < cases.length; k++) {
        const [name, run] = cases[(round + k) % cases.length] as [string, () => number];
        const ms = run();
        if (round > 0) samples.get(name)?.push(ms);
      }
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
  };
}
