import {
  DEFAULT_GROUP_INPUTS,
  DEFAULT_MAX_KEYS,
  type DedupeLimits,
  type DedupeMode,
} from "../io/dedupe-output.js";
import { UsageError } from "../io/io.js";

/** `--unique`, `--groups` and their bounds, as `parseArgs` options. */
export const DEDUPE_FLAGS = {
  unique: { type: "boolean" },
  groups: { type: "boolean" },
  "max-keys": { type: "string" },
  "group-inputs": { type: "string" },
} as const;

/** The values {@link DEDUPE_FLAGS} parse to. */
export interface DedupeFlagValues {
  unique?: boolean | undefined;
  groups?: boolean | undefined;
  "max-keys"?: string | undefined;
  "group-inputs"?: string | undefined;
  json?: boolean | undefined;
  resume?: boolean | undefined;
}

/** A dedupe run's mode and bounds, or undefined for an ordinary run (one line per input). */
export interface DedupeRun {
  mode: DedupeMode;
  limits: DedupeLimits;
}

// 100 million keys is far past what a process holds; the bound is there to catch a typo.
const MAX_MAX_KEYS = 100_000_000;
const MAX_GROUP_INPUTS = 1_000_000;

/**
 * Reads the dedupe flags, refusing the combinations that have no meaning: both modes at once,
 * `--json` (a dedupe run prints keys, or `--groups`' own NDJSON), `--resume` (an output of keys
 * does not say which input comes next), and a bound without its mode.
 *
 * @example
 * ```ts
 * dedupeFromFlags({ unique: true }); // { mode: "unique", limits: { maxKeys: 1000000, groupInputs: 100 } }
 * ```
 */
export function dedupeFromFlags(values: DedupeFlagValues): DedupeRun | undefined {
  const mode = values.unique === true ? "unique" : values.groups === true ? "groups" : undefined;
  if (values.unique === true && values.groups === true)
    throw new UsageError("--unique and --groups are two outputs: choose one");
  if (mode === undefined) {
    if (values["max-keys"] !== undefined) throw new UsageError("--max-keys goes with --unique or --groups");
    if (values["group-inputs"] !== undefined) throw new UsageError("--group-inputs goes with --groups");
    return undefined;
  }
  if (values.json === true)
    throw new UsageError(
      `--${mode} prints ${mode === "unique" ? "keys" : "its own NDJSON"}; it does not take --json`,
    );
  if (values.resume === true)
    throw new UsageError(`--${mode} cannot --resume: its output does not say which input comes next`);
  if (mode === "unique" && values["group-inputs"] !== undefined)
    throw new UsageError("--group-inputs goes with --groups");
  return {
    mode,
    limits: {
      maxKeys: count("--max-keys", values["max-keys"], DEFAULT_MAX_KEYS, MAX_MAX_KEYS),
      groupInputs: count("--group-inputs", values["group-inputs"], DEFAULT_GROUP_INPUTS, MAX_GROUP_INPUTS),
    },
  };
}

function count(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw new UsageError(`${flag} must be an integer from 1 to ${max}, got '${value}'`);
  return n;
}
