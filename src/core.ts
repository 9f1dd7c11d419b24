// The pure entry, `canonurl/core`: re-exports of the pure rooms only (classify, url, rules,
// pipeline, archive) and the errors, no logic. Its import graph holds no node:*, undici,
// htmlparser2, tldts or yaml, so it bundles for browsers and edge workers as is
// (tests/package/bundle.test.ts bundles it; tests/architecture/wall.test.ts walks its graph).
// The Node entry (index.ts) re-exports everything here and adds the resolver and loadRules.
export { type SurtOptions, ssurt, surt } from "./archive/index.js";
export type { UrlForm, UrlFormClass } from "./classify/index.js";
export { classify, isAsciiHost } from "./classify/index.js";
export * from "./errors/index.js";
export { version } from "./generated/version.js";
export {
  contextualTrackingParams,
  defaultTrackingParams,
  type HostScopedTrackingParam,
  hostScopedTrackingParams,
} from "./pipeline/default-tracking-params.js";
export type { Explanation, ExplanationStep } from "./pipeline/explanation.js";
export { keyVersion } from "./pipeline/key-version.js";
export { explain, normalize } from "./pipeline/normalize.js";
export type { NormalizeOptions } from "./pipeline/normalize-options.js";
export type { TrackingLayer, TrackingLayerAction } from "./pipeline/tracking-layer.js";
export {
  type ClearUrlsOptions,
  type ClearUrlsOutcome,
  type ClearUrlsPack,
  compileClearUrls,
} from "./rules/clearurls/index.js";
export { compileRules } from "./rules/compile-rules.js";
export type { DeclarativeRule, FragmentKeep, PathPattern, UnwrapForm } from "./rules/declarative-rule.js";
export { createDefaultRules, type DefaultRulesOptions, defaultRules } from "./rules/default-rules.js";
export type { DomainRule } from "./rules/domain-rule.js";
export { createRuleMatcher } from "./rules/rule-matcher.js";
export { shorteners } from "./rules/shorteners.js";
