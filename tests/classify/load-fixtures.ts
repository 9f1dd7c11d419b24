import { readFileSync } from "node:fs";
import type { UrlForm, UrlFormClass } from "../../src/classify/index.js";
import { fromRoot } from "../helpers/paths.js";
import type { FixtureRow } from "./fixture-row.js";

const CLASSES: Record<string, UrlFormClass> = {
  empty: "empty",
  malformed: "malformed",
  absolute: "absolute",
  hidden_host: "hidden-host",
  protocol_relative: "protocol-relative",
  schemeless_host: "schemeless-host",
  relative: "relative",
};

/**
 * The vendored urlform corpus (`tests/conformance/urlform/whatwg-fixtures.json`).
 *
 * @example
 * ```ts
 * const rows = loadUrlformRows(); // 29 rows
 * ```
 */
export function loadUrlformRows(): FixtureRow[] {
  const text = readFileSync(fromRoot("tests", "conformance", "urlform", "whatwg-fixtures.json"), "utf8");
  const parsed = JSON.parse(text) as { cases: FixtureRow[] };
  return parsed.cases;
}

/**
 * Every fact a row expects, absent fields as urlform's zero values, its class mapped from the
 * fixture's underscore spelling to api.md's hyphenated one (an unknown class throws).
 *
 * @example
 * ```ts
 * expectedForm({ name: "x", input: "/x", class: "relative" }).class; // "relative"
 * ```
 */
export function expectedForm(row: FixtureRow): Omit<UrlForm, "trimmed" | "scriptScheme"> {
  const cls = CLASSES[row.class];
  if (cls === undefined) throw new Error(`row ${row.name}: unknown class ${row.class}`);
  return {
    class: cls,
    host: row.host ?? "",
    scheme: row.scheme ?? "",
    port: row.port ?? "",
    hasBackslash: row.hasBackslash ?? false,
    hasTabOrNewline: row.hasTabOrNewline ?? false,
    hasUserInfo: row.hasUserInfo ?? false,
    hostUnrecoverable: row.hostUnrecoverable ?? false,
  };
}
