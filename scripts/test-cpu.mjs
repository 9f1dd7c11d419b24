// Where the suite's time goes, per test file: a preload that appends, when a test file's process
// exits, its wall time and the CPU it used with its children (every CLI run, worker and server it
// spawned and waited for) to the file named by CANONURL_TEST_CPU. Measuring only: never part of
// `npm test`. Linux (reads /proc/self/stat).
//
//   rm -f /tmp/cpu.tsv; flock /tmp/canonurl-heavy.lock env CANONURL_TEST_CPU=/tmp/cpu.tsv \
//     NODE_OPTIONS="--import=$PWD/scripts/test-cpu.mjs" npm test > /tmp/test.log 2>&1
//   sort -t$'\t' -k3 -nr /tmp/cpu.tsv | head -20     # file, wall s, CPU s (self + children)
//
// NODE_OPTIONS reaches every node process of the run; only a test file's process records itself.
import { appendFileSync, readFileSync } from "node:fs";
import { relative } from "node:path";

const out = process.env.CANONURL_TEST_CPU;
const file = process.argv[1] ?? "";
if (out && file.endsWith(".test.js")) {
  const started = performance.timeOrigin;
  process.on("exit", () => {
    // Fields 14-17 of /proc/self/stat (after the command name in parentheses): utime, stime,
    // cutime, cstime in clock ticks (100 a second on Linux); cutime/cstime count reaped children.
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = fields.slice(11, 15).map(Number);
    const self = (ticks[0] + ticks[1]) / 100;
    const children = (ticks[2] + ticks[3]) / 100;
    const wall = (Date.now() - started) / 1000;
    const row = [relative(process.cwd(), file), wall.toFixed(1), (self + children).toFixed(1)];
    row.push(self.toFixed(1), children.toFixed(1));
    appendFileSync(out, `${row.join("\t")}\n`);
  });
}
