// resolveMany's default concurrency, one constant for the client and its lazy shell (which checks
// the arguments before any engine loads, with the same checks as resolve-many.ts).
export const DEFAULT_CONCURRENCY = 8;
