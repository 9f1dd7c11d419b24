// The classify room's public surface: re-exports only.
export { classify } from "./classify.js";
export { isAsciiHost } from "./is-ascii-host.js";
export type { UrlForm, UrlFormClass } from "./url-form.js";
