import { parseArgs } from "node:util";
import { explain, normalize } from "../pipeline/normalize.js";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import { type CliIo, type ExitCode, writeOut } from "./io.js";
import { NETWORK_FLAGS, networkOptionsFromFlags, runNetworkMode } from "./network-mode.js";
import { NORMALIZE_FLAGS, normalizeOptionsFromFlags } from "./normalize-flags.js";
import { readInputs } from "./read-lines.js";
import { errorJson, failureLine } from "./report-failure.js";
import { loadRulesFlag } from "./rules-flag.js";
import { USAGE } from "./usage.js";

/**
 * `canonurl [options] [URL...]`: canonicalizes each input, streaming line by line in constant memory.
 *
 * @example
 * ```ts
 * await runCanonicalize(["--offline", "HTTP://Example.COM/a/"], io); // prints "http://example.com/a", returns 0
 * ```
 */
export async function runCanonicalize(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      ...NORMALIZE_FLAGS,
      offline: { type: "boolean" },
      json: { type: "boolean" },
      ...NETWORK_FLAGS,
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const options: NormalizeOptions = normalizeOptionsFromFlags(values);
  if (values.rules !== undefined) options.rules = await loadRulesFlag(values.rules, options.preset);
  // Flags are checked before any input is read, so a usage error never consumes stdin.
  const network = values.offline ? undefined : networkOptionsFromFlags(values);
  const inputs = readInputs(positionals, io.stdin);
  if (network !== undefined) {
    const flags = { json: values.json === true, concurrency: network.concurrency };
    return runNetworkMode(inputs, { ...options, ...network.options }, flags, io);
  }
  return runOffline(inputs, options, values.json === true, io);
}

async function runOffline(
  inputs: AsyncIterable<string>,
  options: NormalizeOptions,
  json: boolean,
  io: CliIo,
): Promise<ExitCode> {
  let failed = false;
  let index = 0;
  for await (const input of inputs) {
    let line: string;
    try {
      if (json) {
        const { canonical: url, ruleApplied, paramsStripped } = explain(input, options);
        line = `${JSON.stringify({ index, input, ok: true, url, source: "initial", chain: [], ruleApplied, paramsStripped })}\n`;
      } else line = `${normalize(input, options)}\n`;
    } catch (error) {
      failed = true;
      if (json) line = `${JSON.stringify({ index, input, ok: false, error: errorJson(error) })}\n`;
      else {
        line = "\n";
        await writeOut(io.stderr, failureLine(index, input, error));
      }
    }
    await writeOut(io.stdout, line);
    index++;
  }
  return failed ? 1 : 0;
}
