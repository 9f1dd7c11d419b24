// npm run bench: every benchmark group in one process, with ratios between contenders of a group.
// Absolute times on these machines are noise; the ratios are what to read and report.
// BENCH_GROUP=name[,name] runs only those groups (one group per file, registered below), so a
// change can be measured without the whole run; the full run is what closing figures quote.

import { KEY_MEMO_ENTRIES } from "../src/resolve/key-memo.js";
import { benchArchive } from "./archive.js";
import { reportBundleSize } from "./bundle-size.js";
import { classifyCases } from "./classify.js";
import { benchCli } from "./cli.js";
import { benchColdStart, reportColdStart } from "./cold-start.js";
import { generateCorpus } from "./corpus.js";
import { benchDedupe } from "./dedupe.js";
import { benchGolden } from "./golden.js";
import { goldenWorkload } from "./golden-workload.js";
import { benchHeadScan } from "./head-scan.js";
import { measureInterleaved } from "./measure.js";
import { normalizeCases } from "./normalize.js";
import { linkKinds } from "./normalize-kinds.js";
import { benchPatternMatch, HOSTILE_PATHS } from "./pattern-match.js";
import { guardFindings, guardRatio } from "./regression-guard.js";
import { report } from "./report.js";
import { benchResolve } from "./resolve.js";
import { rulesCacheCases, USER_RULES } from "./rules-cache.js";
import { benchServe, type ServeRate } from "./serve.js";
import { benchServeLockout } from "./serve-lockout.js";

// A count from the environment: a non-negative integer, or the bench stops saying which is wrong.
function envCount(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

const size = envCount("BENCH_URLS", 50_000);
const rounds = envCount("BENCH_ROUNDS", 15);
// Rounds run before the measured ones in the normalize and classify groups: enough for V8 to have
// compiled the code of the golden corpus's rare links (wrappers, the whole pipeline), which it does
// on background threads through its first ~400,000 links (per-round thread CPU from /proc, 6 Dec
// 2026: 380, 30, 20, 40, 10, 40, 40, 0, 10 ms a round of 50,000, then 0-10). With 2, golden
// identity read 2.57, 2.51 and 3.03x the bare parse by CPU time in three runs against 2.31, 2.39
// and 2.35 with 8, interleaved in one quarter hour (bench/README.md, "the seventh pass").
const warmup = envCount("BENCH_WARMUP", 8);

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

async function cacheGroup(): Promise<void> {
  // Twice: 2,000 keys, which the client's key memo holds (the same inputs asked for again), then
  // twice as many keys as the memo holds, cycled in order, so that no client lookup finds its key
  // remembered. Each run compares against the bare stores holding its own key set.
  for (const [keyCount, what] of [
    [Number(process.env.BENCH_CACHE_KEYS ?? 2_000), "inputs seen lately: the key memo has them"],
    [KEY_MEMO_ENTRIES * 2, "inputs not seen lately: more keys than the key memo holds, cycled"],
  ] as const) {
    // The second run's passes take 8 times as long: fewer rounds keep the group near a minute.
    const { benchCache } = await import("./cache.js");
    const r = await benchCache(keyCount, keyCount > 4_000 ? 9 : undefined);
    console.log(
      `\n## cache hit path, ${what} (${r.keys} keys, ${r.payloadChars}-character entries, one awaited get at a time, median of ${r.rounds} interleaved rounds)`,
    );
    const ns = (name: string) => r.medians.get(name) ?? Number.NaN;
    console.log("case | ns/get | gets/s");
    for (const [name, v] of r.medians) console.log(`${name} | ${v.toFixed(0)} | ${(1e9 / v).toFixed(0)}`);
    for (const [ours, bare] of [
      ["memoryCache get", "bare lru-cache get"],
      ["sqliteCache get", "bare better-sqlite3 select"],
      ["sqliteCache get", "bare better-sqlite3 select + JSON.parse"],
      ["redisCache get", "bare node-redis GET"],
      ["redisCache get", "bare node-redis GET + JSON.parse"],
      ["memoryCache client.resolve (hit)", "bare lru-cache get"],
      ["a caller's copy of a stored resolution alone", "bare lru-cache get"],
      ["sqliteCache client.resolve (hit)", "bare better-sqlite3 select + JSON.parse"],
      ["redisCache client.resolve (hit)", "bare node-redis GET + JSON.parse"],
      ["sqliteCache get [node:sqlite]", "sqliteCache get [better-sqlite3]"],
      ["sqliteCache get [node:sqlite]", "bare better-sqlite3 select + JSON.parse"],
    ] as const) {
      if (!r.medians.has(ours)) continue; // node:sqlite: Node 22.13+ only
      console.log(`${ours} / ${bare}: ${(ns(ours) / ns(bare)).toFixed(2)}× the time`);
    }
  }
}

async function dedupeGroup(): Promise<void> {
  const r = await benchDedupe();
  console.log(
    `\n## dedupe (${r.inputs} inputs over ${r.distinct} distinct URLs, two hops each, 5 ms per response, concurrency ${r.concurrency}, median of ${r.rounds} alternating rounds, a fresh client each)`,
  );
  console.log("case | requests | wall ms");
  console.log(`no cache | ${r.withoutCache.requests} | ${r.withoutCache.ms.toFixed(0)}`);
  console.log(`memoryCache | ${r.withCache.requests} | ${r.withCache.ms.toFixed(0)}`);
  console.log(
    `with a cache: ${(r.withCache.requests / r.withoutCache.requests).toFixed(3)}× the requests ` +
      `(${r.withCache.requests / 2} resolutions for ${r.distinct} distinct URLs), ${(r.withCache.ms / r.withoutCache.ms).toFixed(3)}× the time`,
  );
}

let goldenCache: string[] | undefined;
/** The golden corpus as a workload as long as the seeded one, loaded on first use. */
function golden(): string[] {
  goldenCache ??= goldenWorkload(size);
  return goldenCache;
}

// Both pure groups run over two workloads: the seeded corpus and the golden corpus's real link
// shapes (issue 24), each checked by the regression guard against the bare parse of its own run.
const workloads: [string, () => string[]][] = [
  ["seeded corpus", corpus],
  ["golden corpus (real link shapes)", golden],
];

function normalizeGroup(): void {
  for (const [workload, urls] of workloads) {
    const cpu: Map<string, number> = new Map();
    const medians = measureInterleaved(normalizeCases, urls(), rounds, warmup, cpu);
    report(`normalize, ${workload}, wall time`, size, rounds, medians, [
      "new URL(u).href",
      "normalize-url@9",
    ]);
    report(`normalize, ${workload}, process CPU time`, size, rounds, cpu, [
      "new URL(u).href",
      "normalize-url@9",
    ]);
    for (const [what, m] of [
      ["wall", medians],
      ["CPU", cpu],
    ] as const) {
      const bare = m.get("new URL(u).href") ?? Number.NaN;
      const identity = m.get("normalize identity") ?? Number.NaN;
      console.log(
        `by ${what} time: identity is ${((m.get("normalize-url@9") ?? Number.NaN) / identity).toFixed(2)}× faster than normalize-url@9 ` +
          `and ${(identity / bare).toFixed(2)}× the bare parse (target ≤ 2.5×); rfc3986 ${((m.get("normalize rfc3986") ?? Number.NaN) / bare).toFixed(2)}× (target ≤ 1.8×)`,
      );
    }
    // The guard reads CPU time: on a loaded machine wall time measures the queue for a core.
    guardRatio(
      "normalize identity",
      workload,
      (cpu.get("normalize identity") ?? Number.NaN) / (cpu.get("new URL(u).href") ?? Number.NaN),
    );
  }
}

// Where normalize's time goes: each workload split by the way a link is settled (normalize-kinds.ts),
// each kind timed against a bare parse of its own links, interleaved, by CPU time. The share is of
// the workload's links; a kind's weight in the total is its share times its cost.
function normalizeKindsGroup(): void {
  for (const [workload, urls] of workloads) {
    console.log(
      `\n## normalize identity by kind of link, ${workload}, process CPU time (median of ${rounds} interleaved rounds)`,
    );
    console.log("kind | share of links | ns/URL | × new URL(u).href of the same links");
    console.log("---|---|---|---");
    const all = urls();
    for (const [kind, list] of linkKinds(all)) {
      // Each kind's links repeated to a round of at least 20,000 inputs: short lists time badly.
      const round: string[] = [];
      while (round.length < 20_000) round.push(...list);
      const cpu: Map<string, number> = new Map();
      measureInterleaved(normalizeCases.slice(0, 2), round, rounds, warmup, cpu);
      const bare = cpu.get("new URL(u).href") ?? Number.NaN;
      const identity = cpu.get("normalize identity") ?? Number.NaN;
      console.log(
        `${kind} | ${((100 * list.length) / all.length).toFixed(0)}% | ${identity.toFixed(0)} | ${(identity / bare).toFixed(2)}`,
      );
    }
  }
}

function goldenGroup(): void {
  const rows = benchGolden();
  const first = rows[0]?.score;
  console.log(
    `\n## golden corpus (${first?.groups} resource groups, ${first?.multi} of them with several copies; tests/fixtures/golden-corpus)`,
  );
  console.log(
    "canonicalizer | pairs of resources merged | (+ debatable) | same-resource groups united | errors",
  );
  console.log("---|---|---|---|---");
  for (const { name, score } of rows) {
    const firm = score.merges.filter((m) => !m.debatable).length;
    const pct = ((score.united / score.multi) * 100).toFixed(0);
    console.log(
      `${name} | ${firm} | ${score.merges.length - firm} | ${score.united} of ${score.multi} (${pct}%) | ${score.errors.length}`,
    );
  }
}

function rulesCacheGroup(): void {
  // 2,000 URLs a round: a rebuilt 10,000-rule list costs a few µs per call, not the 1 µs of a URL.
  const urls = corpus().slice(0, 2_000);
  const medians = measureInterleaved(rulesCacheCases(), urls, rounds);
  report(`rules-cache (${USER_RULES} user rules + defaultRules)`, urls.length, rounds, medians, [
    "reused array",
  ]);
  const reused = medians.get("reused array") ?? Number.NaN;
  const rebuilt = medians.get("rebuilt array") ?? Number.NaN;
  const copy = medians.get("caller's copy alone") ?? Number.NaN;
  console.log(
    `rebuilding the rules array per call costs ${(rebuilt / reused).toFixed(2)}× reusing it (target ≤ 1.2×); ` +
      `without the caller's own copy of the list, ${((rebuilt - copy) / reused).toFixed(2)}×`,
  );
}

function patternMatchGroup(): void {
  const rows = benchPatternMatch();
  console.log(
    `\n## pattern-match (each shape against ${HOSTILE_PATHS.length} hostile 100 KB paths, median of 5)`,
  );
  console.log("| pattern | worst ms | worst path | all paths ms |\n|---|---|---|---|");
  for (const r of rows)
    console.log(`| \`${r.shape}\` | ${r.worstMs.toFixed(3)} | ${r.worstPath} | ${r.totalMs.toFixed(3)} |`);
  const worst = Math.max(...rows.map((r) => r.worstMs));
  console.log(`slowest shape: ${worst.toFixed(3)} ms on one 100 KB path (target ≤ 50 ms)`);
}

async function headScanGroup(): Promise<void> {
  const headRounds = Number(process.env.BENCH_HEAD_ROUNDS ?? 7);
  const figures = await benchHeadScan(headRounds);
  console.log(
    `\n## head-scan (1 MiB per shape in 16 KiB chunks, CPU ms, median of ${headRounds} interleaved rounds)`,
  );
  console.log("shape | CPU ms | × benign | stopped by | bytes read");
  for (const f of figures) {
    console.log(
      `${f.name} | ${f.cpuMs.toFixed(2)} | ${f.ratio.toFixed(2)} | ${f.stoppedBy} | ${f.bytesRead}`,
    );
  }
}

function classifyGroup(): void {
  for (const [workload, urls] of workloads) {
    const cpu: Map<string, number> = new Map();
    const medians = measureInterleaved(classifyCases, urls(), rounds, warmup, cpu);
    report(`classify, ${workload}, wall time`, size, rounds, medians, ["new URL().href"]);
    report(`classify, ${workload}, process CPU time`, size, rounds, cpu, ["new URL().href"]);
    const ratio = (m: Map<string, number>) =>
      (m.get("classify()") ?? Number.NaN) / (m.get("new URL().href") ?? Number.NaN);
    console.log(
      `classify is ${ratio(medians).toFixed(2)}× the bare parse by wall time, ${ratio(cpu).toFixed(2)}× by CPU time (target ≤ 0.9×)`,
    );
    guardRatio("classify()", workload, ratio(cpu));
  }
}

function rateLine(name: string, r: ServeRate, base: ServeRate): string {
  return (
    `${name}: ${r.requestsPerSecond.toFixed(0)} requests/s, ${r.urlsPerSecond.toFixed(0)} URLs/s ` +
    `(constant app: ${base.requestsPerSecond.toFixed(0)} requests/s; ${((r.requestsPerSecond / base.requestsPerSecond) * 100).toFixed(0)}% of it)`
  );
}

async function serveGroup(): Promise<void> {
  const r = await benchServe();
  console.log(
    `\n## serve (autocannon on loopback, server in a worker thread, ${r.seconds} s per run, median of ${r.rounds} interleaved rounds)`,
  );
  console.log(rateLine(`GET /v1/normalize, ${r.getConnections} connections`, r.get.canonurl, r.get.constant));
  console.log(
    rateLine(
      `POST /v1/normalize, ${r.batchSize}-line NDJSON, ${r.postConnections} connections`,
      r.post.canonurl,
      r.post.constant,
    ),
  );
  console.log(
    `normalize() in-process over the same ${r.batchSize} URLs: ${r.inProcessUrlsPerSecond.toFixed(0)} URLs/s; ` +
      `the batch route reaches ${(r.batchRatio * 100).toFixed(0)}% of it, round by round (target 50%)`,
  );
  console.log(`answers not 2xx or failed: ${r.faults}`);
}

async function serveLockoutGroup(): Promise<void> {
  const r = await benchServeLockout();
  console.log(
    `\n## serve-lockout (${r.clients} clients post a ${r.bodyBytes}-byte, 10,000-URL batch and never read; canonurl serve in a child process, loopback)`,
  );
  console.log(
    `a whole answer: ${r.answerBytes} bytes (loopback buffers: tcp_wmem max ${r.tcpWmemMax}, tcp_rmem default ${r.tcpRmemDefault})`,
  );
  console.log(
    "flags | deadline ms | every slot held at ms | /healthz 200 again at ms | held ms | while filling: 200 / blocked | while held: 429 / blocked | slowest probe ms | clients by status | 200s cut off / whole | answer bytes sent before the cut | probe faults",
  );
  console.log("---|---|---|---|---|---|---|---|---|---|---|---");
  const ms = (x: number) => (Number.isNaN(x) ? "never" : x.toFixed(0));
  for (const run of r.runs) {
    const statuses = Object.entries(run.clientStatuses)
      .sort()
      .map(([status, n]) => `${n}× ${status}`)
      .join(", ");
    console.log(
      `${run.flags.length === 0 ? `(defaults, ${run.slots} slots)` : run.flags.join(" ")} | ${run.deadlineMs} | ${ms(run.fullAtMs)} | ${ms(run.freeAtMs)} | ${ms(run.freeAtMs - run.fullAtMs)} | ${run.fillingAnswered} / ${run.fillingBlocked} | ${run.heldRefused} / ${run.heldBlocked} | ${run.slowestProbeMs.toFixed(0)} | ${statuses} | ${run.clientsCutOff} / ${run.clientsWhole} | ${run.bytesBeforeCut.min}–${run.bytesBeforeCut.max} | ${run.probeFaults}`,
    );
  }
  for (const run of r.runs) {
    console.log(
      `${run.flags.length === 0 ? "defaults" : run.flags.join(" ")}: /healthz answered again ${(run.freeAtMs / (run.deadlineMs + r.writeGraceMs)).toFixed(2)}× (the deadline + the ${r.writeGraceMs} ms write grace) after the clients connected (largest gap between probes ${run.largestProbeGapMs.toFixed(0)} ms)`,
    );
  }
}

function cliGroup(): void {
  const lines = Number(process.env.BENCH_CLI_LINES ?? 500_000);
  const r = benchCli(lines, Number(process.env.BENCH_CLI_ROUNDS ?? 5));
  console.log(`\n## cli (${r.lines} lines from a file, --offline, median of ${r.rounds} interleaved rounds)`);
  console.log(`in-process loop of normalize(): ${r.loopMs.toFixed(0)} ms`);
  console.log(
    `canonurl --offline --workers 1: ${r.workers1Ms.toFixed(0)} ms, ${(r.loopMs / r.workers1Ms).toFixed(2)}× the loop's throughput`,
  );
  console.log(
    `canonurl --offline --workers 2: ${r.workers2Ms.toFixed(0)} ms, ${(r.workers1Ms / r.workers2Ms).toFixed(2)}× --workers 1`,
  );
  console.log(
    `two canonurl --offline --workers 1 processes at once, one per half of the file: ${r.halvesMs.toFixed(0)} ms, ` +
      `${(r.workers1Ms / r.halvesMs).toFixed(2)}× --workers 1 (two threads that share nothing: the most two threads do here)`,
  );
  const c1 = r.workers1Cpu;
  const c2 = r.workers2Cpu;
  console.log(
    `CPU ms (median of 3 runs): --workers 1: main thread ${c1.main}, all threads ${c1.total}; ` +
      `--workers 2: main thread ${c2.main}, busiest other ${c2.busiestOther}, all threads ${c2.total}`,
  );
  // On 2 cores a run takes at least half its total CPU time, and --workers 1 about its main
  // thread's (its collector and compiler threads have the other core to themselves): the ratio
  // the code allows on an idle machine, whatever load the wall times above met.
  console.log(
    `on 2 idle cores: --workers 1 about ${Math.max(c1.main, c1.total / 2).toFixed(0)} ms, --workers 2 at least ${(c2.total / 2).toFixed(0)} ms: ` +
      `at most ${(Math.max(c1.main, c1.total / 2) / (c2.total / 2)).toFixed(2)}× --workers 1`,
  );
}

async function fleetGroup(): Promise<void> {
  const { benchFleet } = await import("./fleet.js");
  const r = await benchFleet();
  console.log(
    `\n## fleet (${r.urls} URLs over 16 hosts, each response held 20 ms, ${r.concurrency} in flight per worker, one redis-server)`,
  );
  for (const rate of r.rates) {
    let line = `${rate.label}: ${rate.urlsPerSecond.toFixed(0)} URLs/s (${rate.seconds.toFixed(2)} s), CPU ${rate.cpuUsPerUrl.toFixed(0)} µs/URL`;
    if (rate.redisCallsPerUrl !== undefined) {
      line += `, Redis ${rate.redisCallsPerUrl.toFixed(2)} commands and ${rate.redisCpuUsPerUrl?.toFixed(0)} µs CPU per URL`;
      line += `\n  Redis cost by command: ${rate.topCommands?.join("; ")}`;
    }
    console.log(line);
  }
  const fleet = (k: number) => r.rates.find((x) => x.workers === k);
  const baseline = (k: number) => r.rates[r.rates.indexOf(fleet(k) as (typeof r.rates)[number]) - 1];
  const one = fleet(1);
  const two = fleet(2);
  if (one !== undefined && two !== undefined) {
    console.log(`2 workers are ${(two.urlsPerSecond / one.urlsPerSecond).toFixed(2)}× one worker`);
    for (const k of [1, 2, 4]) {
      const f = fleet(k);
      const s = baseline(k);
      if (f === undefined || s === undefined) continue;
      console.log(
        `${k} worker${k > 1 ? "s" : ""}: ${(f.urlsPerSecond / s.urlsPerSecond).toFixed(2)}× the single process at the same total concurrency; overhead per URL: ${(f.cpuUsPerUrl - s.cpuUsPerUrl).toFixed(0)} µs worker CPU + ${f.redisCpuUsPerUrl?.toFixed(0)} µs Redis CPU`,
      );
    }
  }
}

// The resolver group runs first, on a heap the 50,000-URL corpora of the other groups have not
// grown yet: their garbage is not the resolver's cost (measured: 0.93-0.96x the peer when it ran
// after them, 0.99x when it ran alone).
// The pure groups run next, before the cache and fleet groups import their stores: loading the
// redis client (cache.ts, fleet.ts import it) makes pure code in the same process slower. Measured
// 2026-12-05 with a CPU-time loop over the golden corpus: classify went from 1.33× to 2.38× a bare
// parse and identity from 7.8× to 10.9× with `redis` imported first, and the archive group saw the
// same (see below). Those two groups import their modules when they run.
const groups: [string, () => void | Promise<void>][] = [
  ["resolve", resolveGroup],
  ["normalize", normalizeGroup],
  ["normalize-kinds", normalizeKindsGroup],
  ["classify", classifyGroup],
  ["cache", cacheGroup],
  ["dedupe", dedupeGroup],
  ["golden", goldenGroup],
  ["rules-cache", rulesCacheGroup],
  ["pattern-match", patternMatchGroup],
  ["cold-start", () => reportColdStart(benchColdStart())],
  ["bundle-size", reportBundleSize],
  ["serve", serveGroup],
  ["serve-lockout", serveLockoutGroup],
  ["head-scan", headScanGroup],
  ["cli", cliGroup],
  ["archive", () => benchArchive(corpus(), rounds)],
  ["fleet", fleetGroup],
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
const over = guardFindings().filter((f) => !(f.ratio <= f.limit));
if (guardFindings().length > 0)
  console.log(
    over.length === 0
      ? `\nregression guard: ${guardFindings().length} ratios within their ceilings`
      : `\nWARNING: regression guard: ${over.length} of ${guardFindings().length} ratios over their ceilings; exiting with code 1`,
  );
