// The archive room: web-archive keys (SURT, SSURT) over canonurl's normalization (pure).
export { ssurt } from "./ssurt.js";
export { surt } from "./surt.js";
export type { SurtOptions } from "./surt-options.js";
