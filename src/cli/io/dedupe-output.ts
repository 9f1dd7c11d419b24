import { Writable } from "node:stream";
import type { OutputFormat } from "../flags/format-flag.js";
import { UsageError, writeOut } from "./io.js";
import { failureLineOf } from "./report-failure.js";

/** `--unique`: each key once, in first-seen order; `--groups`: one `{key, count, inputs}` per key. */
export type DedupeMode = "unique" | "groups";

/** The bounds of a dedupe run's memory (flags `--max-keys` and `--group-inputs`). */
export interface DedupeLimits {
  /** Distinct keys held at most; one more stops the run (exit status 2). */
  readonly maxKeys: number;
  /** With `--groups`: inputs kept per key; later ones are only counted. */
  readonly groupInputs: number;
}

/**
 * Default `--max-keys`. A held key costs about 180 bytes of heap for a URL of 73 characters
 * (measured on Node 20 with --expose-gc over 200,000 keys), so the default holds about 180 MB.
 */
export const DEFAULT_MAX_KEYS = 1_000_000;
/** Default `--group-inputs`. */
export const DEFAULT_GROUP_INPUTS = 100;

interface Group {
  count: number;
  inputs: string[];
}

/**
 * The stream a dedupe run prints through: it takes the run's ordinary output (plain lines for
 * `--unique`, the `--json` objects for `--groups`) and writes to `target` only what the mode
 * prints. `--unique` passes each key the first time it is seen, so keys stream out as their
 * first input is answered; `--groups` holds every group and prints them in first-seen order when
 * the run ends (a later input can still join an earlier group). A failed input's report goes to
 * `stderr` as in a plain run; blank inputs print nothing.
 *
 * Errors pass through: a write that fails on `target` fails this stream with the same error, so
 * the command reports a full disk (exit status 74) or a closed reader (exit 0) exactly as without
 * dedupe. Holding more than `limits.maxKeys` keys fails it with a {@link UsageError}.
 *
 * @example
 * ```ts
 * const out = createDedupeOutput(process.stdout, process.stderr, "unique", "url", { maxKeys: 10, groupInputs: 1 });
 * await writeOut(out, "https://a.test/\nhttps://a.test/\n"); // prints "https://a.test/" once
 * ```
 */
export function createDedupeOutput(
  target: Writable,
  stderr: Writable,
  mode: DedupeMode,
  format: OutputFormat,
  limits: DedupeLimits,
): Writable {
  const seen = new Set<string>();
  const groups = new Map<string, Group>();
  let partial = "";
  let held = 0;

  function hold(index: number): void {
    if (++held > limits.maxKeys)
      throw new UsageError(
        `--${mode} holds at most ${limits.maxKeys} distinct keys (--max-keys) and input ${index} brings one more`,
      );
  }

  // One complete output line in, what stdout and stderr print for it out.
  function take(line: string, index: number): { out: string; err: string } {
    if (mode === "unique") {
      if (line === "" || seen.has(line)) return { out: "", err: "" };
      hold(index);
      seen.add(line);
      return { out: `${line}\n`, err: "" };
    }
    const row = JSON.parse(line) as {
      index: number;
      input: string;
      ok: boolean;
      blank?: boolean;
      url?: string;
      surt?: string;
      ssurt?: string;
      error?: { code: string; message: string };
    };
    if (!row.ok)
      return {
        out: "",
        err: failureLineOf(row.index, row.input, row.error ?? { code: "internal", message: "" }),
      };
    if (row.blank === true) return { out: "", err: "" };
    const key = (format === "url" ? row.url : row[format]) ?? "";
    let group = groups.get(key);
    if (group === undefined) {
      hold(row.index);
      group = { count: 0, inputs: [] };
      groups.set(key, group);
    }
    group.count++;
    if (group.inputs.length < limits.groupInputs) group.inputs.push(row.input);
    return { out: "", err: "" };
  }

  let lineIndex = 0;
  async function pass(text: string): Promise<void> {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    let out = "";
    let err = "";
    for (const line of lines) {
      const taken = take(line, lineIndex++);
      out += taken.out;
      err += taken.err;
    }
    if (err !== "") await writeOut(stderr, err);
    if (out !== "") await writeOut(target, out);
  }

  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      pass(typeof chunk === "string" ? chunk : chunk.toString("utf8")).then(() => callback(), callback);
    },
    final(callback) {
      const flush = async () => {
        if (partial !== "") await pass("\n");
        if (mode !== "groups") return;
        // One write per 256 groups keeps the output streaming in constant extra memory.
        let out = "";
        let n = 0;
        for (const [key, group] of groups) {
          out += `${JSON.stringify({ key, count: group.count, inputs: group.inputs })}\n`;
          if (++n % 256 === 0) {
            await writeOut(target, out);
            out = "";
          }
        }
        if (out !== "") await writeOut(target, out);
      };
      flush().then(() => callback(), callback);
    },
  });
  // Its errors are read where the run writes (writeOut rejects with them) and where it ends
  // (endDedupeOutput); without a listener an 'error' event would end the process first.
  stream.on("error", () => undefined);
  return stream;
}

/**
 * Ends a dedupe output and waits until everything it prints has been handed to its target, or
 * rejects with the error that stopped it.
 *
 * @example
 * ```ts
 * await endDedupeOutput(out);
 * ```
 */
export function endDedupeOutput(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.errored) {
      reject(stream.errored);
      return;
    }
    stream.once("finish", resolve);
    stream.once("error", reject);
    stream.end();
  });
}
