import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

/**
 * The inputs of a command: its positional arguments when there are any, else stdin one line at a
 * time (streamed: constant memory however long the input). A trailing `\r` is dropped so CRLF
 * files work; blank lines are kept as inputs so output lines stay aligned with input lines.
 */
export async function* readInputs(args: readonly string[], stdin: Readable): AsyncGenerator<string> {
  if (args.length > 0) {
    yield* args;
    return;
  }
  const lines = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) yield line;
}
