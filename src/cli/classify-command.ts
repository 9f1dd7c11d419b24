import { type CliIo, type ExitCode, UsageError } from "./io.js";

/** `canonurl classify`: not built yet. */
export async function runClassify(_args: readonly string[], _io: CliIo): Promise<ExitCode> {
  throw new UsageError("'classify' is not available yet");
}
