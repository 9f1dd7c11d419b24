import { parseArgs } from "node:util";
import { classify } from "../classify/index.js";
import type { UrlForm } from "../classify/url-form.js";
import { type CliIo, type ExitCode, writeOut } from "./io.js";
import { readInputs } from "./read-lines.js";

const HELP = `Usage: canonurl classify [--json] [--] [STRING...]

Classifies each STRING (else each line of stdin) the way a browser would read it, without any
network access. One output line per input, in input order.

Plain output, tab-separated:
  class  scheme  host  port  flags  trimmed
  class is one of empty, malformed, absolute, hidden-host, protocol-relative,
  schemeless-host, relative; flags is a comma list of backslash, tab-or-newline,
  userinfo, host-unrecoverable (empty when none). Empty facts are empty fields.

Options:
  --json      one JSON object per input: {"input": ..., "class": ..., "trimmed": ..., "host": ...,
              "scheme": ..., "port": ..., "hasBackslash": ..., "hasTabOrNewline": ...,
              "hasUserInfo": ..., "hostUnrecoverable": ...}
  -h, --help  show this help

Exit status: 0 (classification never fails), 2 on a usage error.
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
  for await (const input of readInputs(positionals, io.stdin)) {
    const form = classify(input);
    const line = values.json ? JSON.stringify({ input, ...form }) : formatPlain(form);
    await writeOut(io.stdout, `${line}\n`);
  }
  return 0;
}
