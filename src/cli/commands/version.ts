import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package version, read at run time from the nearest `package.json` named `canonurl` above this
 * file: `dist/cli/commands/` in an install, `build/src/cli/commands/` in the tests. Reading it (instead of copying the
 * number into the code at build time) keeps `--version` right after every `npm version`.
 *
 * @example
 * ```ts
 * packageVersion(); // "0.1.0"
 * ```
 */
export function packageVersion(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (existsSync(path)) {
      const pkg = JSON.parse(readFileSync(path, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "canonurl" && typeof pkg.version === "string") return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error(`no package.json of canonurl above ${from}`);
  }
}
