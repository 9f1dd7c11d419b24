// The archive group's two ratios again, in a process that has loaded canonurl and nothing else
// (what a program calling surt() loads). bench/run.ts's process has also imported every other
// group's dependencies, and that alone moves these ratios: with only `import "redis"` added,
// surt went from 1.25x to 1.37-1.49x normalize() on the same cases (normalize itself 2.5 µs to
// 3.5-4.2 µs), so both figures are printed. Run by benchArchive; BENCH_URLS and BENCH_ROUNDS apply.
import { clearUrlsCases, surtCases } from "./archive.js";
import { generateCorpus } from "./corpus.js";
import { measureInterleaved } from "./measure.js";
import { report } from "./report.js";

const size = Number(process.env.BENCH_URLS ?? 50_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const corpus = generateCorpus(size);
const s = measureInterleaved(surtCases, corpus, rounds);
report("archive: surt, own process (canonurl only)", corpus.length, rounds, s, [
  "normalize identity",
  "normalize rfc3986",
]);
const c = measureInterleaved(clearUrlsCases, corpus, rounds);
report("archive: ClearURLs pack, own process (canonurl only)", corpus.length, rounds, c, [
  "normalize (default rules)",
]);
