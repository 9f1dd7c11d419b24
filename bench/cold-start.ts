// Cold start: what a user's process pays to load canonurl, measured as whole processes (spawn to
// exit), each case's median over interleaved rounds minus bare `node -e 0` in the same run.
// Wall time is what a user waits; on a shared machine it mostly measures the queue for a core, so
// the child's own CPU time (user + system, getrusage at exit, bootstrap included) is reported
// beside it. Memory: the child's peak RSS (maxRSS) minus the bare child's.
import { spawnSync } from "node:child_process";
import { fromRoot } from "../tests/helpers/paths.js";

/** One process to start. */
interface ColdCase {
  name: string;
  args: string[];
}

const URL_ARG = "https://youtu.be/dQw4w9WgXcQ?si=x&utm_source=y";
// Every case reports its peak RSS (KB) and CPU time (µs) on stderr at exit; the CLI case gets the
// reporter from a --import module, so the command itself runs unchanged.
const REPORT =
  "process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('\\nmaxrss ' + u.maxRSS + ' cpu ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); });";

const cases: ColdCase[] = [
  { name: "bare node -e 0", args: ["-e", `${REPORT} 0`] },
  { name: 'import("canonurl/core")', args: ["-e", `${REPORT} import("canonurl/core")`] },
  // The built-in rules compile their patterns on the first URL they claim, not at import: this
  // case shows what that first use costs (the YouTube rule compiles here).
  {
    name: 'import("canonurl/core") + normalize()',
    args: ["-e", `${REPORT} import("canonurl/core").then((m) => m.normalize(${JSON.stringify(URL_ARG)}))`],
  },
  { name: 'import("canonurl")', args: ["-e", `${REPORT} import("canonurl")`] },
  {
    name: 'import("canonurl") + normalize()',
    args: ["-e", `${REPORT} import("canonurl").then((m) => m.normalize(${JSON.stringify(URL_ARG)}))`],
  },
  { name: 'import("normalize-url") (peer)', args: ["-e", `${REPORT} import("normalize-url")`] },
  {
    name: "canonurl --offline URL (CLI)",
    args: [
      "--import",
      `data:text/javascript,${encodeURIComponent(REPORT)}`,
      fromRoot("dist/cli/bin.js"),
      "--offline",
      URL_ARG,
    ],
  },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One case's medians: wall milliseconds, CPU milliseconds, peak RSS in MB. */
export interface ColdStartRow {
  name: string;
  ms: number;
  cpuMs: number;
  rssMb: number;
}

/** The cold-start group's result; `rows[0]` is bare Node. */
export interface ColdStartResult {
  rounds: number;
  rows: ColdStartRow[];
}

/**
 * Starts every case once per round, in a rotating order, `rounds` times after one warm-up round
 * (the first spawns also warm the file cache).
 *
 * @example
 * ```ts
 * const { rows } = benchColdStart(20);
 * ```
 */
export function benchColdStart(rounds = Number(process.env.BENCH_COLD_ROUNDS ?? 20)): ColdStartResult {
  const samples = new Map(
    cases.map((c) => [c.name, { ms: [] as number[], cpu: [] as number[], rss: [] as number[] }]),
  );
  for (let round = 0; round < rounds + 1; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = cases[(round + k) % cases.length] as ColdCase;
      const start = process.hrtime.bigint();
      const r = spawnSync(process.execPath, c.args, { cwd: fromRoot(), encoding: "utf8" });
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
      const usage = /maxrss (\d+) cpu (\d+)/.exec(r.stderr);
      if (usage === null) throw new Error(`${c.name} reported no usage: ${r.stderr}`);
      if (round === 0) continue;
      const s = samples.get(c.name);
      s?.ms.push(elapsed);
      s?.rss.push(Number(usage[1]) / 1024);
      s?.cpu.push(Number(usage[2]) / 1000);
    }
  }
  return {
    rounds,
    rows: cases.map((c) => {
      const s = samples.get(c.name) ?? { ms: [], cpu: [], rss: [] };
      return { name: c.name, ms: median(s.ms), cpuMs: median(s.cpu), rssMb: median(s.rss) };
    }),
  };
}

/** Prints the cold-start group: each case over bare Node (wall, CPU, RSS) and as a ratio. */
export function reportColdStart(result: ColdStartResult): void {
  const bare = result.rows[0] as ColdStartRow;
  console.log(
    `\n## cold-start (whole processes, median of ${result.rounds} interleaved rounds; "over" = minus bare node -e 0)`,
  );
  console.log(
    `bare node: ${bare.ms.toFixed(0)} ms wall, ${bare.cpuMs.toFixed(0)} ms CPU (wall far above CPU = a loaded machine)`,
  );
  console.log(
    "case | wall ms over bare | × bare wall | CPU ms over bare | × bare CPU | peak RSS MB over bare",
  );
  for (const row of result.rows.slice(1)) {
    console.log(
      [
        row.name,
        `+${(row.ms - bare.ms).toFixed(0)}`,
        (row.ms / bare.ms).toFixed(2),
        `+${(row.cpuMs - bare.cpuMs).toFixed(0)}`,
        (row.cpuMs / bare.cpuMs).toFixed(2),
        `+${(row.rssMb - bare.rssMb).toFixed(1)}`,
      ].join(" | "),
    );
  }
}
