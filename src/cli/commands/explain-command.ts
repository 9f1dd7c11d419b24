import { parseArgs } from "node:util";
import { explain } from "../../pipeline/normalize.js";
import {
  checkOptions,
  NORMALIZE_FLAGS,
  normalizeOptionsFromRecipe,
  readNormalizeRecipe,
} from "../flags/normalize-flags.js";
import { type CliIo, type ExitCode, UsageError, writeOut } from "../io/io.js";
import { errorJson, failureLine } from "../io/report-failure.js";
import { EXPLAIN_USAGE } from "./usage.js";

/**
 * `canonurl explain [options] URL`: the pipeline step by step, for people (or `--json`).
 *
 * @example
 * ```ts
 * await runExplain(["https://youtu.be/dQw4w9WgXcQ?t=30"], io);
 * ```
 */
export async function runExplain(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      ...NORMALIZE_FLAGS,
      json: { type: "boolean" },
      // explain never touches the network; the flag is accepted so a command line that works
      // for canonicalizing (`canonurl --offline …`) also works after `explain`.
      offline: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    await writeOut(io.stdout, EXPLAIN_USAGE);
    return 0;
  }
  const [input, ...extra] = positionals;
  if (input === undefined || extra.length > 0) throw new UsageError("explain takes exactly one URL");
  const options = normalizeOptionsFromRecipe(await readNormalizeRecipe(values));
  checkOptions(options);
  let e: ReturnType<typeof explain>;
  try {
    e = explain(input, options);
  } catch (error) {
    if (values.json)
      await writeOut(io.stdout, `${JSON.stringify({ input, ok: false, error: errorJson(error) })}\n`);
    else await writeOut(io.stderr, failureLine(0, input, error));
    return 1;
  }
  if (values.json) {
    await writeOut(io.stdout, `${JSON.stringify({ ok: true, ...e })}\n`);
    return 0;
  }
  const width = Math.max(...e.steps.map((s) => s.stage.length));
  let text = `input      ${e.input}\n`;
  for (const step of e.steps) {
    text += `${step.stage.padEnd(Math.max(width, 10))} ${step.url}${step.rule === undefined ? "" : `   (${step.rule})`}\n`;
  }
  text += `canonical  ${e.canonical}\n`;
  text += `rule       ${e.ruleApplied ?? "none"}\n`;
  text += `stripped   ${e.paramsStripped.length === 0 ? "none" : e.paramsStripped.join(", ")}\n`;
  await writeOut(io.stdout, text);
  return 0;
}
