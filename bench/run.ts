// npm run bench: every benchmark group in one process, with ratios between contenders of a group.
// Absolute times on these machines are noise; the ratios are what to read and report.
import { classifyCases } from "./classify.js";
import { generateCorpus } from "./corpus.js";
import { measureInterleaved } from "./measure.js";
import { normalizeCases } from "./normalize.js";
import { benchResolve } from "./resolve.js";

const size = Number(process.env.BENCH_URLS ?? 50_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);

function report(title: string, medians: Map<string, number>, baselines: string[]): void {
  console.log(`\n## ${title} (${size} URLs, median of ${rounds} interleaved rounds)`);
  const names = [...medians.keys()];
  const header = ["case", "ns/URL", ...baselines.map((b) => `× ${b}`)];
  console.log(header.join(" | "));
  for (const name of names) {
    const ns = medians.get(name) ?? Number.NaN;
    const ratios = baselines.map((b) => (ns / (medians.get(b) ?? Number.NaN)).toFixed(2));
    console.log([name, ns.toFixed(0), ...ratios].join(" | "));
  }
}

// The resolver group runs first, on a heap the 50,000-URL corpora of the other groups have not
// grown yet: their garbage is not the resolver's cost (measured: 0.93-0.96x the peer when it ran
// after them, 0.99x when it ran alone).
const r = await benchResolve();
console.log(
  `\n## resolve (${r.urls} URLs, two hops each, 5 ms per response, concurrency ${r.concurrency}, median of ${r.rounds} interleaved rounds)`,
);
console.log(
  `canonurl: ${r.urlsPerSecond.toFixed(0)} URLs/s of an ideal ${r.idealUrlsPerSecond.toFixed(0)}: ${(r.ratio * 100).toFixed(0)}% of ideal`,
);
console.log(
  `bare undici Pool (peer, no policy or normalizing): ${r.peerUrlsPerSecond.toFixed(0)} URLs/s, ` +
    `${((r.peerUrlsPerSecond / r.idealUrlsPerSecond) * 100).toFixed(0)}% of ideal; canonurl is ${(r.urlsPerSecond / r.peerUrlsPerSecond).toFixed(2)}× the peer`,
);
console.log(`the server held each response ${r.serverHoldMs.toFixed(2)} ms on average (the ideal assumes 5)`);
console.log(
  `sockets opened by canonurl: ${r.socketsOpened} in all, ${r.socketsOpenedMeasured} during the measured rounds`,
);

const corpus = generateCorpus(size);
const normalizeMedians = measureInterleaved(normalizeCases, corpus, rounds);
report("normalize", normalizeMedians, ["new URL(u).href", "normalize-url@9"]);
const identity = normalizeMedians.get("normalize identity") ?? Number.NaN;
console.log(
  `identity is ${((normalizeMedians.get("normalize-url@9") ?? Number.NaN) / identity).toFixed(2)}× faster than normalize-url@9 ` +
    `and ${(identity / (normalizeMedians.get("new URL(u).href") ?? Number.NaN)).toFixed(2)}× the bare parse`,
);

const classifyMedians = measureInterleaved(classifyCases, corpus, rounds);
report("classify", classifyMedians, ["new URL().href"]);
