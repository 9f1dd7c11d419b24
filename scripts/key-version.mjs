// keyVersion: the version of the keys normalize() gives with its defaults. It changes whenever a
// default output can change: the built-in rules or tracking tiers (hashed from their parsed data,
// so a comment does not count) or the code of the generic pass and pipeline (PIPELINE_REVISION,
// bumped by hand with a CHANGELOG.md line). tests/pipeline/key-version.test.ts recomputes it.
import { createHash } from "node:crypto";

/** Bump when a change of code (not data) can change a default output; add a CHANGELOG.md line. */
export const PIPELINE_REVISION = 4;

/** The data files whose content shapes default keys. */
export const KEY_DATA_FILES = ["domain-rules.yaml", "tracking-params.yaml"];

// JSON with sorted keys: the hash depends on the data, not on how the YAML spells it.
function stable(value) {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** `{revision}.{first 12 hex digits of sha256 over the parsed data files}`. */
export function computeKeyVersion(parsedByFile) {
  const hash = createHash("sha256");
  for (const file of KEY_DATA_FILES) hash.update(`${file}\n${stable(parsedByFile[file])}\n`);
  return `${PIPELINE_REVISION}.${hash.digest("hex").slice(0, 12)}`;
}
