import { parseArgs } from "node:util";
import { classify } from "../../classify/index.js";
import type { UrlForm } from "../../classify/url-form.js";
import { type CliIo, type ExitCode, writeOut } from "../io/io.js";
import { readInputBatches, readsStdin } from "../io/read-lines.js";
import { failureLine, overlongError, overlongInput } from "../io/report-failure.js";
import { needsStdinHint, STDIN_HINT } from "../io/stdin-hint.js";

const HELP = `Usage: canonurl classify [--json] [--] [STRING...]

Classifies each STRING (else each line of stdin; "-" alone also means stdin) the way a browser
would read it, without any network access. One output line per input, in input order. Lines end
at \\n (a \\r\\n pair is one ending; a lone \\r stays in its line); a blank line is classified
"empty" like any other input.

Plain output, tab-separated:
  class  scheme  host  port  flags  trimmed
  class is one of empty, malformed, absolute, hidden-host, protocol-relative,
  schemeless-host, relative; flags is a comma list of backslash, tab-or-newline,
  userinfo, host-unrecoverable, script-scheme (empty when none). Empty facts are empty fields.

Options:
  --json      one JSON object per input: {"input": ..., "class": ..., "trimmed": ..., "host": ...,
              "scheme": ..., "port": ..., "hasBackslash": ..., "hasTabOrNewline": ...,
              "hasUserInfo": ..., "hostUnrecoverable": ...,
              "scriptScheme": ...}
  -h, --help  show this help

Exit status: 0 (classification never fails), 1 when a stdin line is over 1 MiB (an empty
output line, the failure on stderr), 2 on a usage error. A closed stdout ends the run quietly.
`;

/**
 * The plain output line of one form: `class scheme host port flags trimmed`, tab-separated.
 * `trimmed` has no tab or newline (the preprocessing removed them), so the line is one TSV record.
 *
 * @example
 * ```ts
 * formatPlain(classify("https://u@evil.test/")); // "absolute\thttps\tevil.test\t\tuserinfo\thttps://u@evil.test/"
 * ```
 */
export function formatPlain(form: UrlForm): string {
  const flags: string[] = [];
  if (form.hasBackslash) flags.push("backslash");
  if (form.hasTabOrNewline) flags.push("tab-or-newline");
  if (form.hasUserInfo) flags.push("userinfo");
  if (form.hostUnrecoverable) flags.push("host-unrecoverable");
  if (form.scriptScheme) flags.push("script-scheme");
  return `${form.class}\t${form.scheme}\t${form.host}\t${form.port}\t${flags.join(",")}\t${form.trimmed}`;
}

/**
 * `canonurl classify [--json] [STRING...]`: classifies each argument, else each stdin line, and
 * prints one line (or one NDJSON object) per input, in order.
 *
 * @example
 * ```ts
 * const code = await runClassify(["--json", "https:evil.test"], { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runClassify(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    await writeOut(io.stdout, HELP);
    return 0;
  }
  if (needsStdinHint(readsStdin(positionals), io.stdin)) await writeOut(io.stderr, STDIN_HINT);
  let index = 0;
  let failed = false;
  for await (const batch of readInputBatches(positionals, io.stdin)) {
    let out = "";
    let err = "";
    for (const input of batch) {
      if (typeof input !== "string") {
        // Not a classification failure: the line was never kept, so there is nothing to classify.
        failed = true;
        out += "\n";
        err += failureLine(index, overlongInput(input), overlongError(input));
      } else {
        const form = classify(input);
        out += `${values.json ? JSON.stringify({ input, ...form }) : formatPlain(form)}\n`;
      }
      index++;
    }
    if (err !== "") await writeOut(io.stderr, err);
    await writeOut(io.stdout, out);
  }
  return failed ? 1 : 0;
}
