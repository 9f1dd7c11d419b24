import type { Readable } from "node:stream";

/** What canonurl says on stderr when it waits for URLs typed at a terminal. */
export const STDIN_HINT =
  "canonurl: reading URLs from stdin, one per line (Ctrl-D to end); --help for usage\n";

/**
 * Whether to print {@link STDIN_HINT}: the command reads stdin and stdin is a terminal, where a
 * silent wait looks like a hang. A pipe or a file gets no hint, so scripts see clean stderr.
 *
 * @example
 * ```ts
 * needsStdinHint(true, process.stdin); // true when typed at a terminal
 * ```
 */
export function needsStdinHint(readsStdin: boolean, stdin: Readable): boolean {
  return readsStdin && (stdin as { isTTY?: boolean }).isTTY === true;
}
