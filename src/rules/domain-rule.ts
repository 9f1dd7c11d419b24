import type { DeclarativeRule } from "./declarative-rule.js";

/**
 * A domain rule: the site-specific step of the identity pipeline. The first rule whose `match`
 * accepts the generically normalized URL wins; its `apply` returns the rewritten URL.
 *
 * `apply` receives a copy it may mutate and may return either a `URL` or a string (a string is
 * parsed again). Rules built from the declarative format (see `loadRules`) carry their source in
 * `declaration`.
 *
 * @example
 * ```ts
 * const rule: DomainRule = {
 *   name: "example-v1",
 *   match: (url) => url.hostname === "example.com",
 *   apply: (url) => { url.hostname = "www.example.com"; return url; },
 * };
 * normalize("http://example.com/a", { rules: [rule] }); // "http://www.example.com/a"
 * ```
 */
export interface DomainRule {
  /** Versioned name, e.g. `"youtube-v3"`; reported as `ruleApplied`. */
  readonly name: string;
  match(url: URL): boolean;
  apply(url: URL): URL | string;
  /**
   * Query parameters the rule declares as noise for its domains. The pipeline strips these in the
   * final tracking pass and reports them in `paramsStripped`, so a rule need not remove them itself.
   */
  readonly stripParams?: readonly string[];
  /**
   * The `stripParams` for one input (the URL `apply` is about to get), for a rule that
   * understands some paths only: on the others it returns `undefined` and only the tracking
   * passes run. When present, the pipeline asks it instead of reading `stripParams`.
   */
  stripParamsFor?(url: URL): readonly string[] | undefined;
  /**
   * Fragments (without `#`) the rule may keep although fragments are stripped (GitHub's `#L10`).
   * When it matches, the pipeline leaves the hash on the URL it passes to `apply`, and keeps the
   * hash `apply` returns; `apply` may still drop it (GitHub keeps it only on file links).
   */
  readonly keepFragment?: RegExp;
  /** For rules compiled from the declarative format: the frozen declaration. */
  readonly declaration?: DeclarativeRule;
}
