import { loadGoldenCorpus } from "../tests/helpers/golden-corpus.js";

/**
 * The "real link shapes" workload of the normalize and classify groups: every URL of the golden
 * corpus (tests/fixtures/golden-corpus, 852 links as people share them: share suffixes, wrappers,
 * AMP, mobile hosts, campaign parameters) in file order, repeated until `size` inputs, so that a
 * round lasts as long as one over the seeded corpus. The seeded corpus is synthetic; this one is
 * what a dedupe of shared links meets, with far more rule hosts and queries.
 *
 * @example
 * ```ts
 * const urls = goldenWorkload(50_000); // 50,000 inputs, each a golden corpus URL
 * ```
 */
export function goldenWorkload(size: number): string[] {
  const urls = loadGoldenCorpus().flatMap((g) => g.urls);
  if (urls.length === 0) throw new Error("the golden corpus is empty");
  const out: string[] = [];
  for (let i = 0; out.length < size; i++) out.push(urls[i % urls.length] as string);
  return out;
}
