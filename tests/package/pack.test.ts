import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
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
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
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

  it("without a built better-sqlite3 (installed with scripts off) only sqliteCache fails, and says why", () => {
    const binding = join(
      packed.project,
      "node_modules",
      "better-sqlite3",
      "build",
      "Release",
      "better_sqlite3.node",
    );
    assert.equal(existsSync(binding), false, "the consumer was meant to stand for a failed native build");
    const r = run(
      [
        "--input-type=module",
        "-e",
        `const { normalize, memoryCache, sqliteCache } = await import("canonurl");
const memory = memoryCache();
await memory.set("k", { outcome: { ok: false, error: { code: "timeout", message: "m" } }, storedAt: 0, freshUntil: Date.now() + 60000 });
let failure = "none";
try { await sqliteCache("c.sqlite").get("k"); } catch (e) { failure = String(e.message); }
console.log(JSON.stringify([normalize("http://A.example/?utm_source=x"), (await memory.get("k")).outcome.error.code, failure]));`,
      ],
      packed.project,
    );
    assert.equal(r.status, 0, r.stderr);
    const [url, code, failure] = JSON.parse(r.stdout) as string[];
    assert.equal(url, "http://a.example/");
    assert.equal(code, "timeout");
    assert.match(String(failure), /better_sqlite3\.node|better-sqlite3/);
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
