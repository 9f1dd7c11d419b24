import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { HAS_NODE_SQLITE } from "../cache/sqlite-drivers.js";
import { fromRoot } from "../helpers/paths.js";
import { type PackedProject, packAndInstall } from "./packed-project.js";

// What `npm i canonurl` gives a dependent, checked on the real tarball: the issue found require()
// refused (no "default" condition), 273 KB of source maps pointing at sources the tarball does not
// carry, and no browser-safe entry.

// require() of an ES module works without a flag from Node 20.19 and 22.12; earlier it needs
// --experimental-require-module (20.17+, 22.0+), and without it throws ERR_REQUIRE_ESM.
function requireEsmUnflagged(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major >= 23 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue; // node_modules/.bin links; their targets are walked anyway
    if (stat.isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

// The directory of every installed package (node_modules/x, node_modules/@s/x, nested ones too).
function packageDirs(nodeModules: string): string[] {
  const out: string[] = [];
  if (!existsSync(nodeModules)) return out;
  for (const name of readdirSync(nodeModules)) {
    if (name.startsWith(".")) continue;
    const path = join(nodeModules, name);
    if (name.startsWith("@")) {
      for (const inner of readdirSync(path)) out.push(...packageAt(join(path, inner)));
    } else out.push(...packageAt(path));
  }
  return out;
}

function packageAt(dir: string): string[] {
  if (!existsSync(join(dir, "package.json"))) return [];
  return [dir, ...packageDirs(join(dir, "node_modules"))];
}

// What the files hold (`du --apparent-size`) and what they take on disk (`du`: whole blocks, 4 KiB
// for each of the ~2000 small files; the larger figure, and the one a user sees).
function sizeOf(dir: string): { bytes: number; disk: number } {
  let bytes = 0;
  let disk = 0;
  for (const f of filesUnder(dir)) {
    const stat = statSync(f);
    bytes += stat.size;
    disk += Math.max(stat.size, stat.blocks * 512);
  }
  return { bytes, disk };
}

function run(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the packed package", { timeout: 180_000 }, () => {
  let packed: PackedProject;
  before(() => {
    packed = packAndInstall();
  });
  after(() => {
    if (packed !== undefined) rmSync(packed.dir, { recursive: true, force: true });
  });

  it("ships both entries with types, the bin, and no source map", () => {
    const paths = packed.files.map((f) => f.path);
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/core.js",
      "dist/core.d.ts",
      "dist/cli/bin.js",
    ])
      assert.ok(paths.includes(needed), `${needed} is not in the tarball`);
    assert.deepEqual(
      paths.filter((p) => p.endsWith(".map")),
      [],
      "maps would point at src/, which is not shipped",
    );
    assert.deepEqual(
      paths.filter((p) => /^(src|tests|build|bench|scripts|\.ci)\//.test(p)),
      [],
    );
    const mentions = filesUnder(packed.extracted).filter((f) =>
      readFileSync(f, "utf8").includes("sourceMappingURL"),
    );
    assert.deepEqual(mentions, []);
  });

  it("every exports target and every relative import in dist is shipped", () => {
    const pkg = JSON.parse(readFileSync(join(packed.extracted, "package.json"), "utf8")) as {
      exports: Record<string, string | Record<string, string>>;
      bin: Record<string, string>;
      scripts?: Record<string, string>;
    };
    const targets = Object.values(pkg.exports).flatMap((t) =>
      typeof t === "string" ? [t] : Object.values(t),
    );
    assert.ok(targets.length >= 5);
    for (const target of [...targets, ...Object.values(pkg.bin)])
      assert.ok(existsSync(join(packed.extracted, target)), `${target} is named but not shipped`);
    for (const [entry, conditions] of Object.entries(pkg.exports)) {
      if (typeof conditions === "string") continue;
      // Types first (TypeScript reads conditions in order), then a "default" that require() and
      // every bundler accept. canonurl/core also has "node": Node loads the core as one module
      // (dist/core-modules.js), bundlers the same code file by file (scripts/bundle-core.mjs).
      assert.deepEqual(
        Object.keys(conditions),
        entry === "./core" ? ["types", "node", "default"] : ["types", "default"],
        `exports["${entry}"]`,
      );
    }
    let imports = 0;
    for (const file of filesUnder(join(packed.extracted, "dist")).filter((f) => f.endsWith(".js"))) {
      for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import\()\s*["'](\.[^"']+)["']/g)) {
        imports++;
        const target = resolve(dirname(file), m[1] ?? "");
        assert.ok(existsSync(target), `${relative(packed.extracted, file)} imports ${m[1]}, not shipped`);
      }
    }
    assert.ok(imports > 100, `only ${imports} relative imports checked`);
    // Nothing runs on a user's machine at install. `prepare` counts too: npm runs it for git and
    // directory dependencies and some package managers for every dependency, and here it would
    // call scripts/ and tsc, which the tarball does not carry. The build runs at `prepack`.
    const installHooks = Object.keys(pkg.scripts ?? {}).filter((s) =>
      ["preinstall", "install", "postinstall", "prepublish", "prepare"].includes(s),
    );
    assert.deepEqual(installHooks, []);
    assert.equal(pkg.scripts?.prepack, "npm run build", "a packed tarball is built from the sources");
  });

  it("installs from the tarball offline, and the install runs nothing", () => {
    const installed = join(packed.project, "node_modules", "canonurl");
    const got = filesUnder(installed)
      .map((f) => relative(installed, f))
      .sort();
    assert.deepEqual(got, packed.files.map((f) => f.path).sort(), "the install added or dropped files");
  });

  it("require('canonurl') returns the library", () => {
    const script = `const c = require("canonurl"); console.log(c.normalize("https://youtu.be/dQw4w9WgXcQ?si=x"), typeof c.createClient, typeof c.loadRules);`;
    const expected = "https://www.youtube.com/watch?v=dQw4w9WgXcQ function function\n";
    const plain = run(["-e", script], packed.project);
    if (requireEsmUnflagged()) {
      assert.equal(plain.stderr, "");
      assert.equal(plain.stdout, expected);
    } else {
      // Node 20.18 (our engines floor): documented in the README as needing the flag or import().
      assert.match(plain.stderr, /ERR_REQUIRE_ESM/);
      const flagged = run(["--experimental-require-module", "-e", script], packed.project);
      assert.equal(flagged.stdout, expected);
    }
    const core = run(
      ["-e", `console.log(require("canonurl/core").classify("https:/evil.test/x").class)`],
      packed.project,
    );
    if (requireEsmUnflagged()) assert.equal(core.stdout, "hidden-host\n");
  });

  it("import('canonurl/core') and import('canonurl') return real results", () => {
    const r = run(
      [
        "--input-type=module",
        "-e",
        `const core = await import("canonurl/core");
const node = await import("canonurl");
const rules = core.compileRules([{ name: "shop-v1", domains: ["shop.example", "www.shop.example"], canonicalHost: "www.shop.example" }]);
console.log(JSON.stringify([
  core.normalize("http://shop.example/a/?utm_source=x", { rules }),
  core.explain("https://youtu.be/dQw4w9WgXcQ?si=x").ruleApplied,
  "loadRules" in core,
  node.loadRules("- { name: a-v1, domains: [a.example, b.example], canonicalHost: b.example }")[0].apply(new URL("http://a.example/x")).toString(),
  node.normalize === core.normalize,
]));`,
      ],
      packed.project,
    );
    assert.equal(r.stderr, "");
    assert.deepEqual(JSON.parse(r.stdout), [
      "http://www.shop.example/a",
      "youtube-v3",
      false,
      "http://b.example/x",
      true,
    ]);
  });

  it("a lean install: at most 26 packages and 24 MB, no install script, no native file; scripts on or off alike", (t) => {
    const packages = packageDirs(join(packed.project, "node_modules"));
    const { bytes, disk } = sizeOf(join(packed.project, "node_modules"));
    t.diagnostic(
      `installed: ${packages.length} packages, ${(bytes / 2 ** 20).toFixed(1)} MiB of files, ${(disk / 2 ** 20).toFixed(1)} MiB on disk; npm ci took ${Math.round(packed.installMs)} ms (scripts off), ${Math.round(packed.installWithScriptsMs)} ms (scripts on)`,
    );
    // Issue 21 found 78 packages and 77 MB, and a compile of SQLite from source at install.
    assert.ok(
      packages.length <= 26,
      `${packages.length} packages: ${packages.map((p) => relative(packed.project, p)).join(" ")}`,
    );
    assert.ok(packages.length >= 10, "the walk found the dependencies");
    assert.ok(disk <= 24 * 2 ** 20, `node_modules takes ${disk} bytes on disk (${bytes} in its files)`);
    for (const peer of ["better-sqlite3", "redis", "@redis/client", "bullmq", "ioredis"])
      assert.equal(existsSync(join(packed.project, "node_modules", peer)), false, `${peer} was installed`);
    const withHooks: string[] = [];
    for (const dir of packages) {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        scripts?: Record<string, string>;
        gypfile?: boolean;
      };
      const hooks = Object.keys(pkg.scripts ?? {}).filter((s) =>
        ["preinstall", "install", "postinstall"].includes(s),
      );
      // npm runs `node-gyp rebuild` for a package with a binding.gyp even without an install script.
      if (hooks.length > 0 || pkg.gypfile === true || existsSync(join(dir, "binding.gyp")))
        withHooks.push(relative(packed.project, dir));
    }
    assert.deepEqual(withHooks, [], "these run something at install");
    const native = filesUnder(join(packed.project, "node_modules")).filter((f) => f.endsWith(".node"));
    assert.deepEqual(native, [], "native addons in the tree");
    const tree = (root: string) =>
      filesUnder(join(root, "node_modules"))
        .filter((f) => !f.includes(`${join("node_modules", ".package-lock.json")}`))
        .map((f) => `${relative(root, f)} ${statSync(f).size}`)
        .sort();
    assert.deepEqual(
      tree(packed.withScripts),
      tree(packed.project),
      "npm i with scripts on installed another tree",
    );
  });

  it("publint --strict and attw --profile esm-only find nothing; node10 finds the types of every entry", () => {
    const publint = run(
      [fromRoot("node_modules", "publint", "src", "cli.js"), "--strict", packed.tarball],
      packed.dir,
    );
    assert.equal(publint.status, 0, publint.stdout + publint.stderr);
    assert.match(publint.stdout, /All good!/);
    // One attw run: with --format json it exits with the verdict the text format gives (the same
    // getExitCode: 1 on a problem the profile counts), and its report is read below. Two runs, one
    // per format, cost ~2.9 CPU-s each for the same analysis.
    const attwBin = fromRoot("node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
    const json = run([attwBin, "--profile", "esm-only", "--format", "json", packed.tarball], packed.dir);
    assert.equal(json.status, 0, json.stdout + json.stderr);
    const report = JSON.parse(json.stdout) as {
      analysis: {
        entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName?: string } }> }>;
      };
      problems: Record<string, { resolutionKind: string; entrypoint: string }[]>;
    };
    const entries = Object.keys(report.analysis.entrypoints);
    assert.deepEqual(entries.sort(), [".", "./core", "./fleet", "./package.json"]);
    for (const entry of entries.filter((e) => e !== "./package.json")) {
      const node10 = report.analysis.entrypoints[entry]?.resolutions.node10?.resolution?.fileName;
      assert.match(String(node10), /\.d\.ts$/, `node10 resolves no types for ${entry}`);
    }
    // The one kind left is the esm-only profile's ignored one: require() from CommonJS of an ESM package.
    const problems = Object.values(report.problems).flat();
    assert.deepEqual(
      problems.filter((p) => p.resolutionKind !== "node16-cjs"),
      [],
      JSON.stringify(problems),
    );
  });

  it("package.json: repository, homepage, bugs, a licence covering the shipped data, a changelog, version", () => {
    const pkg = JSON.parse(readFileSync(join(packed.extracted, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    assert.match(
      String((pkg.repository as { url?: string }).url),
      /^git\+https:\/\/github\.com\/canonurl\/canonurl\.git$/,
    );
    assert.match(String(pkg.homepage), /^https:\/\/github\.com\/canonurl\/canonurl/);
    assert.match(
      String((pkg.bugs as { url?: string }).url),
      /^https:\/\/github\.com\/canonurl\/canonurl\/issues$/,
    );
    // The tarball ships the ClearURLs list, LGPL-3.0 (data/clearurls/SOURCE.md); the field must say so.
    assert.ok(packed.files.some((f) => f.path === "data/clearurls/data.min.json"));
    assert.equal(pkg.license, "MIT AND LGPL-3.0-only");
    assert.deepEqual(Object.keys(pkg.peerDependencies as object).sort(), [
      "better-sqlite3",
      "bullmq",
      "redis",
    ]);
    for (const peer of Object.values(pkg.peerDependenciesMeta as Record<string, { optional?: boolean }>))
      assert.equal(peer.optional, true);
    for (const name of Object.keys(pkg.peerDependencies as object))
      assert.equal(
        (pkg.dependencies as Record<string, string>)[name],
        undefined,
        `${name} is still a dependency`,
      );
    const changelog = readFileSync(join(packed.extracted, "CHANGELOG.md"), "utf8");
    assert.match(changelog, /^## \[Unreleased\]$/m);
    assert.match(changelog, /keepachangelog\.com/);
    // Links in the README that the registry page cannot follow: relative ones to files.
    const readme = readFileSync(join(packed.extracted, "README.md"), "utf8");
    const relativeLinks = [...readme.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)]
      .map((m) => m[1] ?? "")
      .filter((href) => !/^[a-z]+:/i.test(href));
    assert.deepEqual(relativeLinks, [], "relative links break on the registry page");
    const repoLinks = [
      ...readme.matchAll(/https:\/\/github\.com\/canonurl\/canonurl\/blob\/main\/([^)#\s]+)/g),
    ];
    assert.ok(repoLinks.length >= 10);
    for (const [, path] of repoLinks)
      assert.ok(existsSync(fromRoot(path ?? "")), `the README links to ${path}, which the repository lacks`);
    const version = run(
      [
        "--input-type=module",
        "-e",
        `const a = await import("canonurl"); const b = await import("canonurl/core"); console.log(a.version, b.version);`,
      ],
      packed.project,
    );
    assert.equal(version.stdout, `${pkg.version} ${pkg.version}\n`, version.stderr);
  });

  it("a missing optional peer is an Error naming npm i, from the factory that needs it; the CLI exits 2 with it", () => {
    const r = run(
      [
        "--input-type=module",
        "-e",
        `const { normalize, memoryCache, sqliteCache, redisCache } = await import("canonurl");
const { createFleet } = await import("canonurl/fleet");
const memory = memoryCache();
await memory.set("k", { outcome: { ok: false, error: { code: "timeout", message: "m" } }, storedAt: 0, freshUntil: Date.now() + 60000 });
const failure = (f) => { try { f(); return "none"; } catch (e) { return e.code + " " + e.message; } };
let sqlite;
try {
  const cache = sqliteCache("c.sqlite");
  await cache.set("k", { outcome: { ok: false, error: { code: "timeout", message: "m" } }, storedAt: Date.now(), freshUntil: Date.now() + 60000 });
  sqlite = "works " + (await cache.get("k")).outcome.error.code;
  await cache.close();
} catch (e) { sqlite = e.code + " " + e.message; }
console.log(JSON.stringify([
  normalize("http://A.example/?utm_source=x"),
  (await memory.get("k")).outcome.error.code,
  sqlite,
  failure(() => redisCache("redis://127.0.0.1:1/0")),
  failure(() => createFleet({ redis: "redis://127.0.0.1:1/0" })),
]));`,
      ],
      packed.project,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    const [url, code, sqlite, redis, fleet] = JSON.parse(r.stdout) as string[];
    assert.equal(url, "http://a.example/");
    assert.equal(code, "timeout");
    if (HAS_NODE_SQLITE)
      assert.equal(sqlite, "works timeout", "node:sqlite serves sqliteCache with no addon");
    else
      assert.match(
        String(sqlite),
        /^ERR_CANONURL_MISSING_PEER canonurl: sqliteCache needs node:sqlite .* npm i better-sqlite3$/,
      );
    assert.match(
      String(redis),
      /^ERR_CANONURL_MISSING_PEER canonurl: redisCache needs the package redis.*; install it with: npm i redis$/,
    );
    assert.match(String(fleet), /^ERR_CANONURL_MISSING_PEER .*missing: bullmq, redis.*npm i bullmq redis$/);

    // The CLI, on a .test host sent to a loopback port nobody listens on (nothing else is allowed).
    const net = [
      "--resolve",
      "nobody.test:127.0.0.1",
      "--allow-network",
      "127.0.0.1/32",
      "--allowed-port",
      "1",
      "--timeout",
      "2000",
    ];
    const bin = join(packed.project, "node_modules", ".bin", "canonurl");
    const cli = run(
      [bin, ...net, "--cache", "redis://127.0.0.1:1/0", "http://nobody.test:1/"],
      packed.project,
    );
    assert.equal(cli.status, 2, cli.stderr);
    assert.equal(cli.stdout, "");
    assert.match(
      cli.stderr,
      /^canonurl: redisCache needs the package redis.*; install it with: npm i redis\n$/,
    );
    const fleetCli = run([bin, "fleet", "work", "--redis", "redis://127.0.0.1:1/0"], packed.project);
    assert.equal(fleetCli.status, 2, fleetCli.stderr);
    assert.match(fleetCli.stderr, /npm i bullmq redis\n$/);
    // The default cache: node:sqlite where Node has it, else a memory cache and one line saying so.
    const xdg = join(packed.dir, "xdg");
    const env = { ...process.env, XDG_CACHE_HOME: xdg };
    const defaults = spawnSync(
      process.execPath,
      [bin, ...net, "http://nobody.test:1/a", "http://nobody.test:1/b"],
      {
        cwd: packed.project,
        env,
        encoding: "utf8",
      },
    );
    assert.equal(defaults.status, 1, defaults.stderr); // nobody answers: both inputs fail
    const notes = defaults.stderr.split("\n").filter((l) => l.startsWith("canonurl: no SQLite"));
    if (HAS_NODE_SQLITE) {
      assert.deepEqual(notes, []);
      assert.ok(existsSync(join(xdg, "canonurl", "resolutions.sqlite")), "the default cache file was opened");
    } else {
      assert.equal(notes.length, 1, defaults.stderr);
      assert.match(
        notes[0] ?? "",
        /in memory for this run only; to keep them between runs: npm i better-sqlite3, or use Node 22\.13\+$/,
      );
    }
  });

  it("the installed bin runs the README's first command offline", () => {
    const r = run(
      [
        join(packed.project, "node_modules", ".bin", "canonurl"),
        "--offline",
        "https://youtu.be/dQw4w9WgXcQ?si=x&utm_source=y",
      ],
      packed.project,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "https://www.youtube.com/watch?v=dQw4w9WgXcQ\n");
  });

  it("types resolve for both entries, from ESM and from CommonJS", () => {
    writeFileSync(
      join(packed.project, "app.mts"),
      `import { createClient, loadRules, normalize, type Resolution } from "canonurl";
import { classify, compileRules, type DomainRule, type UrlFormClass } from "canonurl/core";
export const s: string = normalize("http://a.example/");
export const rules: DomainRule[] = compileRules([]);
export const c: UrlFormClass = classify("x").class;
export type R = Resolution;
export { createClient, loadRules };
`,
    );
    writeFileSync(
      join(packed.project, "app.cts"),
      `import canonurl = require("canonurl");\nconst s: string = canonurl.normalize("http://a.example/");\nexport = s;\n`,
    );
    // A wrong type must fail, or a missing declaration file would pass as `any`.
    writeFileSync(
      join(packed.project, "wrong.mts"),
      `import { normalize } from "canonurl/core";\nexport const n: number = normalize("http://a.example/");\n`,
    );
    const tsconfig = (files: string[]) =>
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          lib: ["es2023", "dom"],
          types: [],
        },
        files,
      });
    const tsc = fromRoot("node_modules", "typescript", "bin", "tsc");
    writeFileSync(join(packed.project, "tsconfig.json"), tsconfig(["app.mts", "app.cts"]));
    const good = run([tsc, "-p", "tsconfig.json"], packed.project);
    assert.equal(good.status, 0, good.stdout + good.stderr);
    writeFileSync(join(packed.project, "tsconfig.json"), tsconfig(["wrong.mts"]));
    const bad = run([tsc, "-p", "tsconfig.json"], packed.project);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stdout, /TS2322/);
  });
});
