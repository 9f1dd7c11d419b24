import normalizeUrl from "normalize-url";
import { normalize } from "../src/index.js";
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

/** normalize() with both presets against normalize-url@9 and a bare WHATWG parse. */
export const normalizeCases: BenchCase[] = [
  { name: "new URL(u).href", run: tryRun((u) => new URL(u).href) },
  { name: "normalize identity", run: tryRun((u) => normalize(u)) },
  { name: "normalize rfc3986", run: tryRun((u) => normalize(u, { preset: "rfc3986" })) },
  { name: "normalize-url@9", run: tryRun((u) => normalizeUrl(u)) },
];
