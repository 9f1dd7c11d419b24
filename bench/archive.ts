import { clearUrlsRules, defaultRules, normalize, surt } from "../src/index.js";
import type { BenchCase } from "./bench-case.js";

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
