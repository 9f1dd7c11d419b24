import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { fromRoot } from "../helpers/paths.js";

/**
 * The packages a fresh Node process had loaded at each checkpoint of a script, and under
 * `files:<checkpoint>` the files of this package's dist/ it had loaded (ES modules only).
 */
export type LoadedPackages = Record<string, string[]>;

// A resolve hook (module.register) sees every ESM import, including an ESM file's import of a
// CommonJS package; require() calls (createRequire, and CommonJS packages' own requires) do not go
// through it on Node 20, so require.cache is read as well. The union names every package loaded.
const HOOKS = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.CANONURL_LOAD_LOG, result.url + "\\n");
  return result;
}
`;

/**
 * Runs `body` (an ES module body; `checkpoint(name)` records what was loaded so far) in a fresh
 * Node process started in the repository root, so `canonurl` resolves to this package by name.
 */
export async function loadedPackages(body: string): Promise<LoadedPackages> {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-load-"));
  try {
    const log = join(dir, "log");
    writeFileSync(log, "");
    writeFileSync(join(dir, "hooks.mjs"), HOOKS);
    writeFileSync(
      join(dir, "register.mjs"),
      `import { register } from "node:module";\nregister(${JSON.stringify(`file://${join(dir, "hooks.mjs")}`)});\n`,
    );
    const script = `
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(${JSON.stringify(fromRoot("package.json"))});
const checkpoints = {};
const packageOf = (path) => {
  const rest = path.split("/node_modules/").pop();
  return rest.startsWith("@") ? rest.split("/").slice(0, 2).join("/") : rest.split("/")[0];
};
globalThis.checkpoint = (name) => {
  const paths = [
    ...readFileSync(process.env.CANONURL_LOAD_LOG, "utf8").split("\\n"),
    ...Object.keys(require.cache),
  ].filter((p) => p.includes("/node_modules/"));
  checkpoints[name] = [...new Set(paths.map(packageOf))].sort();
  // This package's own files, relative to its root (dist/core.js, …), under "files:" + name.
  const root = ${JSON.stringify(`${pathToFileURL(fromRoot()).href}/`)};
  checkpoints["files:" + name] = [
    ...new Set(readFileSync(process.env.CANONURL_LOAD_LOG, "utf8").split("\\n").filter((u) => u.startsWith(root + "dist/")).map((u) => u.slice(root.length))),
  ].sort();
};
try {
${body}
} finally {
  // On a line of its own: the body may print (the CLI writes its results to stdout).
  process.stdout.write("\\n" + JSON.stringify(checkpoints));
}
`;
    const child = spawn(
      process.execPath,
      ["--import", join(dir, "register.mjs"), "--input-type=module", "-e", script],
      { cwd: fromRoot(), env: { ...process.env, CANONURL_LOAD_LOG: log }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (code !== 0) throw new Error(`the probe exited ${code}: ${stderr}`);
    return JSON.parse(stdout.slice(stdout.lastIndexOf("\n") + 1)) as LoadedPackages;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
