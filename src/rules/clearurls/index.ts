// ClearURLs provider lists (LGPL-3.0 data, loaded at run time) compiled into domain rules (pure).
export type { ClearUrlsOutcome } from "./clear-urls-pass.js";
export { type ClearUrlsOptions, type ClearUrlsPack, compileClearUrls } from "./compile-clear-urls.js";
