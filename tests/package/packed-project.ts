import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fromRoot } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp-dir.js";

/** One file of `npm pack --json`'s listing. */
export interface PackedFile {
  path: string;
  size: number;
}

/** The repository packed as npm would publish it, extracted, and installed into a fresh project. */
export interface PackedProject {
  dir: string;
  tarball: string;
  files: PackedFile[];
  /** The tarball's contents, extracted (`package/…` stripped). */
  extracted: string;
  /** The consumer project, with canonurl installed from the tarball (`npm ci --ignore-scripts`). */
  project: string;
  /** A second consumer, installed with lifecycle scripts on. */
  withScripts: string;
  /** Wall time of each install, for the record (never asserted: see bench/). */
  installMs: number;
  installWithScriptsMs: number;
}

// A child npm must not inherit the settings of the `npm test` that runs us (npm_config_*,
// npm_lifecycle_*, npm_package_*), except where the cache is.
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.toLowerCase().startsWith("npm_") || k.toLowerCase() === "npm_config_cache") env[k] = v;
  return env;
}

function npm(args: string[], cwd: string): string {
  const r = spawnSync("npm", args, { cwd, env: npmEnv(), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dev?: boolean;
}

// The lock entries of canonurl's runtime dependencies, found the way Node finds them (nearest
// node_modules first), copied from this repository's lock file. With them the consumer project
// installs with `npm ci --offline` from the npm cache the repository's own `npm ci` filled: npm ci
// fetches tarballs by integrity and never package metadata, which `npm install --offline` would need.
function runtimeLockEntries(): Record<string, LockEntry> {
  const lock = JSON.parse(readFileSync(fromRoot("package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const pkg = JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const out: Record<string, LockEntry> = {};
  const find = (from: string, name: string): string => {
    let base = from;
    for (;;) {
      const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
      if (lock.packages[candidate] !== undefined) return candidate;
      if (base === "")
        throw new Error(`${name} (needed by ${from || "canonurl"}) is not in package-lock.json`);
      const i = base.lastIndexOf("/node_modules/");
      base = i === -1 ? "" : base.slice(0, i);
    }
  };
  const walk = (from: string, deps: Record<string, string>): void => {
    for (const name of Object.keys(deps)) {
      const path = find(from, name);
      if (out[path] !== undefined) continue;
      const entry = lock.packages[path] as LockEntry;
      out[path] = entry;
      walk(path, { ...entry.dependencies, ...entry.optionalDependencies });
    }
  };
  walk("", pkg.dependencies);
  return out;
}

/** Writes a consumer project of the tarball (package.json and a lock file) into `project`. */
function writeConsumer(project: string, filename: string, pkg: Record<string, unknown>): void {
  mkdirSync(project);
  const spec = `file:../${filename}`;
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, dependencies: { canonurl: spec } }),
  );
  writeFileSync(
    join(project, "package-lock.json"),
    JSON.stringify({
      name: "consumer",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "consumer", dependencies: { canonurl: spec } },
        "node_modules/canonurl": {
          version: pkg.version,
          resolved: spec,
          license: pkg.license,
          dependencies: pkg.dependencies,
          peerDependencies: pkg.peerDependencies,
          peerDependenciesMeta: pkg.peerDependenciesMeta,
          bin: pkg.bin,
          engines: pkg.engines,
        },
        ...runtimeLockEntries(),
      },
    }),
  );
}

/**
 * Packs the built repository (`npm pack --ignore-scripts`: `npm test` has built dist/ already, and
 * a second build would rewrite dist/ under tests running beside this one), extracts the tarball and
 * installs it, offline and without lifecycle scripts, into a new project.
 */
export function packAndInstall(): PackedProject {
  const dir = tempDir("canonurl-pack-");
  const listing = JSON.parse(
    npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], fromRoot()),
  ) as { filename: string; files: PackedFile[] }[];
  const packed = listing[0];
  if (packed === undefined) throw new Error("npm pack listed nothing");
  const tarball = join(dir, packed.filename);
  const extracted = join(dir, "extracted");
  mkdirSync(extracted);
  execFileSync("tar", ["-xzf", tarball, "-C", extracted, "--strip-components=1"]);
  let installMs = 0;
  let installWithScriptsMs = 0;

  const pkg = JSON.parse(readFileSync(join(extracted, "package.json"), "utf8")) as Record<string, unknown>;
  const project = join(dir, "project");
  writeConsumer(project, packed.filename, pkg);
  // The same install with lifecycle scripts on, as a user types it: it must give the same tree.
  const withScripts = join(dir, "with-scripts");
  writeConsumer(withScripts, packed.filename, pkg);
  try {
    // From the npm cache only (offline), once with lifecycle scripts off and once with them on:
    // no dependency has an install script or a native build (pack.test.ts checks the tree), so
    // both give the same tree, and neither needs a compiler or the network.
    let started = performance.now();
    npm(["ci", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], project);
    installMs = performance.now() - started;
    started = performance.now();
    npm(["ci", "--offline", "--no-audit", "--no-fund"], withScripts);
    installWithScriptsMs = performance.now() - started;
  } catch (error) {
    throw new Error(
      `installing the tarball offline failed; the npm cache must hold the dependencies (run \`npm ci\` in the repository first): ${(error as Error).message}`,
    );
  }
  return {
    dir,
    tarball,
    files: packed.files,
    extracted,
    project,
    withScripts,
    installMs,
    installWithScriptsMs,
  };
}
