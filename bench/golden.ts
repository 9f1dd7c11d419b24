// Identity quality on the golden corpus (tests/fixtures/golden-corpus): for each canonicalizer, the
// pairs of resources it merges (the worst error: a dedupe deletes one of them) and the share of
// same-resource groups it unites. Counts, not times, so one run is the figure.
import normalizeUrl from "normalize-url";
import { clearUrlsLayer, clearUrlsRules, defaultRules, normalize } from "../src/index.js";
import { type CorpusScore, loadGoldenCorpus, scoreCorpus } from "../tests/helpers/golden-corpus.js";

/** One row of the side-by-side table. */
export interface GoldenRow {
  name: string;
  score: CorpusScore;
}

// normalize-url's options that make it unite more, each of which can merge resources on some
// servers: https for http, any hash dropped, index files dropped, every query parameter that looks
// like tracking by its own default list.
const aggressive = {
  forceHttps: true,
  stripHash: true,
  removeDirectoryIndex: true,
  removeExplicitPort: true,
  removeSingleSlash: true,
} as const;

/**
 * Scores canonurl (defaults, and with the ClearURLs pack) and normalize-url@9 (defaults and
 * aggressive options) on the golden corpus.
 *
 * @example
 * ```ts
 * for (const row of benchGolden()) console.log(row.name, row.score.merges.length);
 * ```
 */
export function benchGolden(): GoldenRow[] {
  const groups = loadGoldenCorpus();
  const withClearUrls = [...defaultRules, ...clearUrlsRules()];
  const layer = clearUrlsLayer();
  return [
    { name: "canonurl normalize", score: scoreCorpus(groups, (u) => normalize(u)) },
    {
      name: "canonurl + ClearURLs pack (as rules)",
      score: scoreCorpus(groups, (u) => normalize(u, { rules: withClearUrls })),
    },
    {
      name: "canonurl + ClearURLs layer",
      score: scoreCorpus(groups, (u) => normalize(u, { trackingLayers: [layer] })),
    },
    { name: "normalize-url@9", score: scoreCorpus(groups, (u) => normalizeUrl(u)) },
    {
      name: "normalize-url@9, aggressive options",
      score: scoreCorpus(groups, (u) => normalizeUrl(u, aggressive)),
    },
  ];
}
