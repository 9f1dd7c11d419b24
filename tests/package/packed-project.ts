import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromRoot } from "../helpers/paths.js";

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
  /** The consumer project, with canonurl installed from the tarball. */
  project: string;
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

/**
 * Packs the built repository (`npm pack --ignore-scripts`: `npm test` has built dist/ already, and
 * a second build would rewrite dist/ under tests running beside this one), extracts the tarball and
 * installs it, offline and without lifecycle scripts, into a new project.
 */
export function packAndInstall(): PackedProject {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-pack-"));
  const listing = JSON.parse(
    npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], fromRoot()),
  ) as { filename: string; files: PackedFile[] }[];
  const packed = listing[0];
  if (packed === undefined) throw new Error("npm pack listed nothing");
  const tarball = join(dir, packed.filename);
  const extracted = join(dir, "extracted");
  mkdirSync(extracted);
  execFileSync("tar", ["-xzf", tarball, "-C", extracted, "--strip-components=1"]);

  const project = join(dir, "project");
  mkdirSync(project);
  const pkg = JSON.parse(readFileSync(join(extracted, "package.json"), "utf8")) as Record<string, unknown>;
  const spec = `file:../${packed.filename}`;
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
          bin: pkg.bin,
          engines: pkg.engines,
        },
        ...runtimeLockEntries(),
      },
    }),
  );
  try {
    // Lifecycle scripts off: canonurl has none (pack.test.ts pins that), and with them on
    // better-sqlite3's install compiles SQLite from source when it cannot download a prebuilt
    // binary (offline here): about 100 s of CI per Node version for a dependency's build, not ours.
    // The consumer thus also stands for a user whose native build failed: every check below runs
    // without a loadable better-sqlite3, which only sqliteCache needs (it loads on first use).
    npm(["ci", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], project);
  } catch (error) {
    throw new Error(
      `installing the tarball offline failed; the npm cache must hold the dependencies (run \`npm ci\` in the repository first): ${(error as Error).message}`,
    );
  }
  return { dir, tarball, files: packed.files, extracted, project };
}
