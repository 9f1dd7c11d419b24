// Public entry: re-exports only, no logic.

export { type SurtOptions, ssurt, surt } from "./archive/index.js";
export type { Cache } from "./cache/cache.js";
export type { UrlForm, UrlFormClass } from "./classify/index.js";
export { classify, isAsciiHost } from "./classify/index.js";
export * from "./errors/index.js";
export { defaultTrackingParams } from "./pipeline/default-tracking-params.js";
export type { Explanation, ExplanationStep } from "./pipeline/explanation.js";
export { explain, normalize } from "./pipeline/normalize.js";
export type { NormalizeOptions } from "./pipeline/normalize-options.js";
export { type Client, createClient } from "./resolve/client.js";
export { canonicalize, resolve } from "./resolve/one-shot.js";
export { createPinnedTransport, type PinnedTransport } from "./resolve/pinned-transport.js";
export type { Transport, TransportRequest, TransportResponse } from "./resolve/transport.js";
export type { ClientOptions, Hop, Outcome, Resolution, Trace } from "./resolve/types.js";
export type { DeclarativeRule, FragmentKeep, PathPattern, UnwrapForm } from "./rules/declarative-rule.js";
export { createDefaultRules, type DefaultRulesOptions, defaultRules } from "./rules/default-rules.js";
export type { DomainRule } from "./rules/domain-rule.js";
export { loadRules } from "./rules/load-rules.js";
export { createRuleMatcher } from "./rules/rule-matcher.js";
export { shorteners } from "./rules/shorteners.js";
export {
  type ClearUrlsOptions,
  type ClearUrlsOutcome,
  type ClearUrlsPack,
  clearUrlsRules,
  clearUrlsSnapshotPath,
  compileClearUrls,
} from "./rules-node/clear-urls-rules.js";
