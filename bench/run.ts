// npm run bench: every benchmark group in one process, with ratios between contenders of a group.
// Absolute times on these machines are noise; the ratios are what to read and report.
// BENCH_GROUP=name[,name] runs only those groups (one group per file, registered below), so a
// change can be measured without the whole run; the full run is what closing figures quote.

import { readFileSync } from "node:fs";
import { clearUrlsSnapshotPath, compileClearUrls, normalize } from "../src/index.js";
import { clearUrlsCases, hostileUrls, surtCases } from "./archive.js";
import { classifyCases } from "./classify.js";
import { generateCorpus } from "./corpus.js";
import { measureInterleaved } from "./measure.js";
import { normalizeCases } from "./normalize.js";
import { report } from "./report.js";
import { benchResolve } from "./resolve.js";

const size = Number(process.env.BENCH_URLS ?? 50_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);

let corpusCache: string[] | undefined;
/** The seeded corpus, generated on first use so groups that do not read it do not pay for it. */
function corpus(): string[] {
  corpusCache ??= generateCorpus(size);
  return corpusCache;
}

async function resolveGroup(): Promise<void> {
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
  console.log(
    `the server held each response ${r.serverHoldMs.toFixed(2)} ms on average (the ideal assumes 5)`,
  );
  console.log(
    `sockets opened by canonurl: ${r.socketsOpened} in all, ${r.socketsOpenedMeasured} during the measured rounds`,
  );
}

function normalizeGroup(): void {
  const medians = measureInterleaved(normalizeCases, corpus(), rounds);
  report("normalize", size, rounds, medians, ["new URL(u).href", "normalize-url@9"]);
  const identity = medians.get("normalize identity") ?? Number.NaN;
  console.log(
    `identity is ${((medians.get("normalize-url@9") ?? Number.NaN) / identity).toFixed(2)}× faster than normalize-url@9 ` +
      `and ${(identity / (medians.get("new URL(u).href") ?? Number.NaN)).toFixed(2)}× the bare parse`,
  );
}

function classifyGroup(): void {
  report("classify", size, rounds, measureInterleaved(classifyCases, corpus(), rounds), ["new URL().href"]);
}

function archiveGroup(): void {
  const s = measureInterleaved(surtCases, corpus(), rounds);
  report("archive: surt", size, rounds, s, ["normalize identity", "normalize rfc3986"]);
  const c = measureInterleaved(clearUrlsCases, corpus(), rounds);
  report("archive: ClearURLs pack", size, rounds, c, ["normalize (default rules)"]);
  // The worst ClearURLs provider on hostile 8,192-character URLs (the pack's maxUrlLength): every
  // regex of each provider over each hostile URL, against one normalize() of the same URLs.
  const hostile = hostileUrls(8192);
  const pack = compileClearUrls(JSON.parse(readFileSync(clearUrlsSnapshotPath(), "utf8")));
  const time = (f: () => void, n = 5): number => {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint();
      f();
      xs.push(Number(process.hrtime.bigint() - t));
    }
    return xs.sort((a, b) => a - b)[Math.floor(n / 2)] as number;
  };
  const base = time(() => {
    for (const u of hostile) normalize(u);
  });
  const perProvider = providerRegexTimes(hostile, time);
  perProvider.sort((a, b) => b[1] - a[1]);
  console.log(
    `\n## archive: ClearURLs regexes on ${hostile.length} hostile 8,192-char URLs (× one normalize() of each)`,
  );
  for (const [name, ns] of perProvider.slice(0, 5)) console.log(`${name} | ${(ns / base).toFixed(2)}×`);
  const whole = time(() => {
    for (const u of hostile) pack.clean(u);
  });
  console.log(`whole pack (host index) | ${(whole / base).toFixed(2)}×`);
}

function providerRegexTimes(hostile: string[], time: (f: () => void) => number): [string, number][] {
  const data = JSON.parse(readFileSync(clearUrlsSnapshotPath(), "utf8")) as {
    providers: Record<string, Record<string, unknown>>;
  };
  const out: [string, number][] = [];
  for (const [name, p] of Object.entries(data.providers)) {
    const sources = [
      p.urlPattern,
      ...["exceptions", "redirections", "rawRules"].flatMap((k) => (p[k] as string[]) ?? []),
    ] as string[];
    const res = sources.map((s) => new RegExp(s, "i"));
    out.push([
      name,
      time(() => {
        for (const u of hostile) for (const re of res) re.test(u);
      }),
    ]);
  }
  return out;
}

// The resolver group runs first, on a heap the 50,000-URL corpora of the other groups have not
// grown yet: their garbage is not the resolver's cost (measured: 0.93-0.96x the peer when it ran
// after them, 0.99x when it ran alone).
const groups: [string, () => void | Promise<void>][] = [
  ["resolve", resolveGroup],
  ["normalize", normalizeGroup],
  ["classify", classifyGroup],
  ["archive", archiveGroup],
];

const only = process.env.BENCH_GROUP?.split(",").filter((g) => g !== "");
const unknown = only?.filter((g) => !groups.some(([name]) => name === g)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown BENCH_GROUP ${unknown.join(", ")}; groups: ${groups.map(([n]) => n).join(", ")}`);
  process.exit(2);
}
for (const [name, run] of groups) {
  if (only === undefined || only.includes(name)) await run();
}
