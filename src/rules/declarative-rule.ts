import type { WrapperDecoding } from "./wrapper-decoding.js";

/**
 * One path rewrite of a declarative rule: when `match` matches the whole path, the path (and
 * optionally the query) becomes `rewrite` with the captures filled in.
 *
 * `{name}` captures one path segment (or the part of one between literals); a final `/{name*}`
 * captures the rest of the path, possibly empty. A trailing slash on the input path is tolerated.
 *
 * @example
 * ```ts
 * const embed: PathPattern = { match: "/embed/{id}", rewrite: "/watch?v={id}" };
 * ```
 */
export interface PathPattern {
  /** Path pattern, starting with `/`, e.g. `"/{user}/status/{id}/photo/{n}"`. */
  readonly match: string;
  /** Replacement path, starting with `/`; may set query parameters: `"/watch?v={id}"`. */
  readonly rewrite: string;
  /**
   * Extension: the pattern applies only on these hosts (same syntax as `domains`, each covered by
   * the rule's `domains`). Needed where one host's short form would misread another's paths:
   * `youtu.be/{id}` must not turn `youtube.com/feed` into a video.
   */
  readonly hosts?: readonly string[];
  /**
   * Extension: the allowlist of query parameters when this pattern applies, in place of the rule's
   * `keepParams`; `[]` keeps none (the rewrite's own parameters stay). YouTube keeps `list` on
   * `/playlist` but not on `/watch`.
   */
  readonly keepParams?: readonly string[];
  /**
   * Extension: parameters the final pass strips when this pattern applies, added to the rule's
   * `stripParams` (GitHub's `tab` is noise on a repository's page, content on a profile).
   */
  readonly stripParams?: readonly string[];
}

/**
 * Extension: which fragments survive a rule that otherwise strips them (GitHub's `#L10-L20`).
 *
 * @example
 * ```ts
 * const lines: FragmentKeep = { pattern: "L\\d+(-L\\d+)?", paths: ["/{owner}/{repo}/blob/{path*}"] };
 * ```
 */
export interface FragmentKeep {
  /** A regular expression (JavaScript syntax, `u` flag) the whole fragment, without `#`, must match. */
  readonly pattern: string;
  /** Path patterns (as in {@link PathPattern.match}); when given, the output path must match one. */
  readonly paths?: readonly string[];
}

/**
 * Extension: one way a wrapper link carries its target. Exactly one of `param` and `target`.
 *
 * @example
 * ```ts
 * const googleRedirect: UnwrapForm = { path: "/url", param: "q" };
 * const wayback: UnwrapForm = { path: "/web/{timestamp}/{url*}", target: "{url}", keepQuery: true };
 * ```
 */
export interface UnwrapForm {
  /** Path pattern the wrapper's path must match (captures feed `target`). */
  readonly path: string;
  /** The query parameter holding the target URL (form-decoded). */
  readonly param?: string;
  /** Template of the target URL built from `path` captures, e.g. `"https://{target}"`. */
  readonly target?: string;
  /** Append the wrapper's query to a `target`-built URL (the Wayback Machine's does belong to it). @default false */
  readonly keepQuery?: boolean;
  /**
   * A `param` target that is a path (`/watch?v=…`, as YouTube's `/attribution_link?u=` carries)
   * is read on the wrapper's own scheme and host. @default false
   */
  readonly sameHost?: boolean;
  /**
   * The target is encoded in a wrapper's own scheme, decoded after it is read (Proofpoint URL
   * Defense: `"proofpoint-v2"` for `/v2/url?u=https-3A__host_path`, `"proofpoint-v3"` for
   * `/v3/__URL__;…`). A text not in that scheme is not a target. @default none
   */
  readonly decode?: WrapperDecoding;
}

/**
 * A domain rule as users write it in YAML or JSON (and as the built-in rules ship in
 * `data/domain-rules.yaml`): link-canonical's `DeclRule` (§18) plus the documented extensions
 * `canonicalScheme`, `pathPatterns[].hosts`, `keepFragment` and `unwrap`. See `docs/rules.md`.
 *
 * @example
 * ```ts
 * const rule: DeclarativeRule = {
 *   name: "youtube-v3",
 *   domains: ["youtube.com", "www.youtube.com", "youtu.be"],
 *   canonicalHost: "www.youtube.com",
 *   canonicalScheme: "https",
 *   keepParams: ["v"],
 *   pathPatterns: [{ match: "/embed/{id}", rewrite: "/watch?v={id}" }],
 * };
 * loadRules(JSON.stringify([rule]));
 * ```
 */
export interface DeclarativeRule {
  /** Versioned name reported as `ruleApplied`, e.g. `"youtube-v3"`; unique within a document. */
  readonly name: string;
  /**
   * Hosts the rule claims: exact names (`"youtu.be"`) or `"*.example.com"` for every subdomain (not
   * the apex). A literal `canonicalHost` is claimed too, listed or not, so the rule's output is
   * its own again.
   */
  readonly domains: readonly string[];
  /**
   * Replaces the host (and drops the port). In `"www.{domain}"`, `{domain}` is the shortest of
   * `domains` that is the host or a parent of it: `amazon.de` and `smile.amazon.de` → `www.amazon.de`.
   */
  readonly canonicalHost?: string;
  /** Extension: replaces the scheme (and drops the port). */
  readonly canonicalScheme?: "http" | "https";
  /**
   * Allowlist: when non-empty, every other query parameter is dropped (exact names). With
   * `pathPatterns`, only on the paths they declare.
   */
  readonly keepParams?: readonly string[];
  /**
   * Noise parameters, removed by the pipeline's final pass; `"utm_*"` matches by prefix. With
   * `pathPatterns`, only on the paths they declare.
   */
  readonly stripParams?: readonly string[];
  /**
   * Path rewrites; the first whose `match` matches wins. A rule with patterns is scoped to them:
   * its allowlist, `stripParams` and rewrites apply on those paths only, and on any other path of
   * its hosts only the tracking passes run (and `mirrorHosts` moves the host). A rule without
   * patterns applies on every path of its hosts.
   */
  readonly pathPatterns?: readonly PathPattern[];
  /**
   * Extension: hosts (of `domains`) that serve every path exactly as the canonical host does: on
   * them `canonicalHost` and `canonicalScheme` apply on paths no pattern declares too (nothing
   * else does). `true` names every host of `domains`. Only with `pathPatterns`. @default []
   */
  readonly mirrorHosts?: readonly string[] | true;
  /** `false` keeps every fragment. @default true */
  readonly stripFragment?: boolean;
  /** Extension: the fragments kept although `stripFragment` is true; a string is the `pattern`. */
  readonly keepFragment?: string | FragmentKeep;
  /** Extension: the rule unwraps links that carry their target; it then carries only `name`, `domains` (and `exemptParams`). */
  readonly unwrap?: readonly UnwrapForm[];
  /**
   * Parameters the tracking passes leave alone on the rule's hosts (exact names): `ref` is a git
   * ref on a code host. Applies whichever rule rewrites the URL: every rule of the list that claims
   * the host contributes its exemptions. A rule with only `name`, `domains` and `exemptParams`
   * rewrites nothing and never takes part in first-match, so it cannot hide a later rule.
   */
  readonly exemptParams?: readonly string[];
}
