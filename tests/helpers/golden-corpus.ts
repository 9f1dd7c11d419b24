import { readdirSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { fromRoot } from "./paths.js";

/** One resource of the golden corpus: every URL in `urls` is a copy of it (tests/fixtures/golden-corpus). */
export interface GoldenGroup {
  /** `file.yaml#n`, the group's place, for messages. */
  id: string;
  note: string;
  urls: string[];
  /** Why reasonable canonicalizers may disagree about this group; undefined when they may not. */
  debatable: string | undefined;
}

/** Two groups that share a key: one resource would be deleted by a dedupe. */
export interface Merge {
  key: string;
  a: { id: string; url: string };
  b: { id: string; url: string };
  /** True when either group is marked debatable. */
  debatable: boolean;
}

/** The score of one canonicalizer on the corpus. */
export interface CorpusScore {
  groups: number;
  /** Groups of two or more URLs that are not debatable: the denominator of `united`. */
  multi: number;
  /** Of `multi`, the groups whose URLs all got one key. */
  united: number;
  merges: Merge[];
  /** Groups with a URL the canonicalizer threw on, with the message. */
  errors: { id: string; url: string; message: string }[];
  /** Multi groups left split, each with its distinct keys (for reading what is missing). */
  split: { id: string; keys: string[] }[];
}

const dir = fromRoot("tests", "fixtures", "golden-corpus");

/**
 * Reads every group of the golden corpus, checking each file's shape.
 *
 * @example
 * ```ts
 * loadGoldenCorpus().length; // 411
 * ```
 */
export function loadGoldenCorpus(): GoldenGroup[] {
  const groups: GoldenGroup[] = [];
  // A URL written in two groups would be a merge the corpus itself made.
  const placeOf = new Map<string, string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()) {
    const value: unknown = parse(readFileSync(`${dir}/${file}`, "utf8"));
    if (!Array.isArray(value)) throw new Error(`${file}: a list of groups`);
    value.forEach((raw: unknown, i) => {
      const g = raw as { note?: unknown; urls?: unknown; debatable?: unknown };
      const id = `${file}#${i + 1}`;
      if (!Array.isArray(g.urls) || g.urls.length === 0 || !g.urls.every((u) => typeof u === "string"))
        throw new Error(`${id}: urls is a non-empty list of strings`);
      if (g.debatable !== undefined && typeof g.debatable !== "string")
        throw new Error(`${id}: debatable is a reason (a string)`);
      for (const url of g.urls as string[]) {
        const other = placeOf.get(url);
        if (other !== undefined && other !== id) throw new Error(`${id}: ${url} is in ${other} too`);
        placeOf.set(url, id);
      }
      groups.push({
        id,
        note: typeof g.note === "string" ? g.note : "",
        urls: g.urls as string[],
        debatable: g.debatable as string | undefined,
      });
    });
  }
  return groups;
}

/**
 * Scores a canonicalizer (`key`: URL → key) on the corpus: merges between groups and the share of
 * same-resource groups it unites. A URL `key` throws on is its own key (it can merge nothing).
 *
 * @example
 * ```ts
 * const score = scoreCorpus(loadGoldenCorpus(), (u) => normalize(u));
 * score.merges.length; // 0
 * ```
 */
export function scoreCorpus(groups: readonly GoldenGroup[], key: (url: string) => string): CorpusScore {
  const owner = new Map<string, { id: string; url: string; debatable: boolean }>();
  const merges: Merge[] = [];
  const errors: CorpusScore["errors"] = [];
  const split: CorpusScore["split"] = [];
  let multi = 0;
  let united = 0;
  for (const g of groups) {
    const keys = new Set<string>();
    for (const url of g.urls) {
      let k: string;
      try {
        k = key(url);
      } catch (error) {
        errors.push({ id: g.id, url, message: error instanceof Error ? error.message : String(error) });
        k = `\u0000error:${g.id}:${url}`;
      }
      keys.add(k);
      const seen = owner.get(k);
      if (seen === undefined) owner.set(k, { id: g.id, url, debatable: g.debatable !== undefined });
      else if (seen.id !== g.id && !merges.some((m) => m.key === k && m.b.id === g.id))
        merges.push({
          key: k,
          a: { id: seen.id, url: seen.url },
          b: { id: g.id, url },
          debatable: seen.debatable || g.debatable !== undefined,
        });
    }
    if (g.urls.length > 1 && g.debatable === undefined) {
      multi++;
      if (keys.size === 1) united++;
      else split.push({ id: g.id, keys: [...keys] });
    }
  }
  return { groups: groups.length, multi, united, merges, errors, split };
}
