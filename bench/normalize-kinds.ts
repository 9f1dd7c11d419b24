import { normalize } from "../src/index.js";
import { canonicalFastPath, canonicalFromText } from "../src/pipeline/canonical-fast-path.js";
import { resolveNormalizeOptions } from "../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../src/pipeline/rule-lookup.js";
import { parseInput } from "../src/url/parse-input.js";

/** Which way normalize() settles a link with the default options. */
export type LinkKind =
  | "settled on its text"
  | "settled after the parse"
  | "claimed by a rule"
  | "whole pipeline";

/**
 * Splits a workload by the way normalize() settles each link with the default options: on its text
 * before any parse (canonicalFromText), by the fast path after the parse, on a host a built-in rule
 * claims, or by the whole pipeline otherwise. Inputs that fail are left out. The bench times each
 * kind against a bare parse of the same links, so the note can say where the time goes.
 *
 * @example
 * ```ts
 * const kinds = linkKinds(goldenWorkload(852)); // Map { "settled on its text" => [...], ... }
 * ```
 */
export function linkKinds(urls: readonly string[]): Map<LinkKind, string[]> {
  const options = resolveNormalizeOptions(undefined);
  const lookup = ruleLookup(options.rules);
  const kinds = new Map<LinkKind, string[]>();
  for (const u of urls) {
    let url: URL;
    try {
      normalize(u);
      url = parseInput(u, options.defaultScheme).url;
    } catch {
      continue;
    }
    const kind: LinkKind =
      canonicalFromText(u, options, lookup, []) !== undefined
        ? "settled on its text"
        : canonicalFastPath(url.href, url.hostname, options, lookup, [], true) !== undefined
          ? "settled after the parse"
          : lookup.mayMatch(url.hostname)
            ? "claimed by a rule"
            : "whole pipeline";
    const list = kinds.get(kind) ?? [];
    list.push(u);
    kinds.set(kind, list);
  }
  return kinds;
}
