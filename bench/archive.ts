import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  clearUrlsRules,
  clearUrlsSnapshotPath,
  compileClearUrls,
  defaultRules,
  normalize,
  surt,
} from "../src/index.js";
import { compileProvider } from "../src/rules/clearurls/clear-urls-provider.js";
import type { BenchCase } from "./bench-case.js";
import { measureInterleaved } from "./measure.js";
import { report } from "./report.js";

function tryRun(f: (u: string) => string): (u: string) => unknown {
  return (u) => {
    try {
      return f(u);
    } catch {
      return undefined;
    }
  };
}

const withClearUrls = [...defaultRules, ...clearUrlsRules()];

/** surt() against the normalize() it builds on (targets: surt ≤ 1.3× normalize). */
export const surtCases: BenchCase[] = [
  { name: "normalize identity", run: tryRun((u) => normalize(u)) },
  { name: "normalize rfc3986", run: tryRun((u) => normalize(u, { preset: "rfc3986" })) },
  { name: "surt", run: tryRun((u) => surt(u)) },
  { name: "surt preset none", run: tryRun((u) => surt(u, { preset: "none" })) },
];

/** normalize() with the ClearURLs pack after the default rules, against the default rules alone (target ≤ 2×). */
export const clearUrlsCases: BenchCase[] = [
  { name: "normalize (default rules)", run: tryRun((u) => normalize(u)) },
  { name: "normalize + ClearURLs", run: tryRun((u) => normalize(u, { rules: withClearUrls })) },
];

/**
 * Hostile URLs of `length` characters for the ClearURLs regexes: long runs of what their
 * quantifiers eat (host characters, dots, `&`, `=`, `%`), with no match at the end.
 */
export function hostileUrls(length: number): string[] {
  const fill = (unit: string, prefix: string) =>
    prefix + unit.repeat(Math.ceil((length - prefix.length) / unit.length)).slice(0, length - prefix.length);
  return [
    fill("a", "https://"),
    fill("a.", "https://"),
    fill("a-", "https://www.amazon.com/"),
    fill("a=", "https://www.google.com/url?"),
    fill("&a", "https://www.google.com/?"),
    fill("u", "https://www.instagram.com/?"),
    fill("%3", "https://disq.us/url?url="),
    fill("/ref=", "https://www.amazon.de/"),
    fill("x.", "https://x.com/"),
  ];
}

/**
 * The archive group: surt() against normalize() and normalize() with the ClearURLs pack against
 * without, interleaved over the corpus; then the slowest ClearURLs providers' regexes on hostile
 * 8,192-character URLs (the pack's default maxUrlLength), each against one normalize() of them.
 */
export function benchArchive(corpus: readonly string[], rounds: number): void {
  const s = measureInterleaved(surtCases, corpus, rounds);
  report("archive: surt", corpus.length, rounds, s, ["normalize identity", "normalize rfc3986"]);
  const c = measureInterleaved(clearUrlsCases, corpus, rounds);
  report("archive: ClearURLs pack", corpus.length, rounds, c, ["normalize (default rules)"]);
  // The same cases in a process with canonurl alone (see archive-alone.ts for why both).
  spawnSync(process.execPath, [fileURLToPath(new URL("./archive-alone.js", import.meta.url))], {
    stdio: "inherit",
    env: { ...process.env, BENCH_URLS: String(corpus.length), BENCH_ROUNDS: String(rounds) },
  });
  const hostile = hostileUrls(8192);
  const data = JSON.parse(readFileSync(clearUrlsSnapshotPath(), "utf8")) as {
    providers: Record<string, Record<string, unknown>>;
  };
  const pack = compileClearUrls(data);
  const base = medianTime(() => {
    for (const u of hostile) normalize(u);
  });
  // The regexes as the pack compiles them (a leading `.*` anchored), each provider's over every
  // hostile URL.
  const perProvider: [string, number][] = Object.entries(data.providers).map(([name, raw], i) => {
    const p = compileProvider(name, raw, i, false);
    const res = [p.urlPattern, ...p.exceptions, ...p.redirections, ...p.rawRules];
    return [
      name,
      medianTime(() => {
        for (const u of hostile) for (const re of res) u.replace(re, "");
      }),
    ];
  });
  perProvider.sort((a, b) => b[1] - a[1]);
  console.log(
    `\n## archive: ClearURLs regexes on ${hostile.length} hostile 8,192-char URLs (× one normalize() of each)`,
  );
  for (const [name, ns] of perProvider.slice(0, 5)) console.log(`${name} | ${(ns / base).toFixed(2)}×`);
  const whole = medianTime(() => {
    for (const u of hostile) pack.clean(u);
  });
  console.log(`whole pack (host index) | ${(whole / base).toFixed(2)}×`);
}

function medianTime(f: () => void, n = 5): number {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    f();
    xs.push(Number(process.hrtime.bigint() - t));
  }
  return xs.sort((a, b) => a - b)[Math.floor(n / 2)] as number;
}
