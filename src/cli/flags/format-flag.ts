import { ssurt } from "../../archive/ssurt.js";
import { surt } from "../../archive/surt.js";
import { UsageError } from "../io/io.js";

/** What a success prints: the canonical URL, or one of the web-archive keys of it. */
export type OutputFormat = "url" | "surt" | "ssurt";

/**
 * Reads `--format url|surt|ssurt` (default `url`); another value is a usage error.
 *
 * @example
 * ```ts
 * outputFormatFromFlag("surt"); // "surt"
 * ```
 */
export function outputFormatFromFlag(value: string | undefined): OutputFormat {
  if (value === undefined || value === "url" || value === "surt" || value === "ssurt") return value ?? "url";
  throw new UsageError(`--format must be url, surt or ssurt, got '${value}'`);
}

/**
 * The key `format` asks for, of a URL the flags already canonicalized: its SURT (the Archive's
 * own steps on top, no second normalization: `preset: "none"`) or its SSURT.
 *
 * @example
 * ```ts
 * archiveKey("surt", "http://www.example.com/a?b=1"); // "com,example)/a?b=1"
 * ```
 */
export function archiveKey(format: "surt" | "ssurt", canonical: string): string {
  return format === "surt" ? surt(canonical, { preset: "none" }) : ssurt(canonical);
}
