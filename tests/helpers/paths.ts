import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${start}`);
    dir = up;
  }
  return dir;
}

/** The repository root, found from this file whether it runs compiled (build/) or not. */
export const repoRoot: string = (() => {
  const here = findRoot(dirname(fileURLToPath(import.meta.url)));
  // Compiled tests live in build/tests; build/ has no package.json, so the walk lands on the root.
  return here;
})();

/** Absolute path of a file given relative to the repository root. */
export function fromRoot(...parts: string[]): string {
  return join(repoRoot, ...parts);
}
