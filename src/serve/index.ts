// The serve room's surface: re-exports only.
export { createServeApp } from "./app.js";
export type { ServeOptions } from "./serve-options.js";
export { type RunningServe, startServe } from "./start-serve.js";
