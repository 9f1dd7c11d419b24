// Empties dist/ before a build, so a file the sources no longer produce (an old source map, a
// renamed module) can never reach the published package.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

rmSync(join(dirname(fileURLToPath(import.meta.url)), "..", "dist"), { recursive: true, force: true });
