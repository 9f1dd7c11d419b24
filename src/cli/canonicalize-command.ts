import { type CliIo, type ExitCode, UsageError } from "./io.js";

/** `canonurl canonicalize`: not built yet. */
export async function runCanonicalize(_args: readonly string[], _io: CliIo): Promise<ExitCode> {
  throw new UsageError("'canonicalize' is not available yet");
}
