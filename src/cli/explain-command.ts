import { type CliIo, type ExitCode, UsageError } from "./io.js";

/** `canonurl explain`: not built yet. */
export async function runExplain(_args: readonly string[], _io: CliIo): Promise<ExitCode> {
  throw new UsageError("'explain' is not available yet");
}
