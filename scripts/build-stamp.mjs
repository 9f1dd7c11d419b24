// Lets `npm test` skip `npm run build` when nothing the build reads or writes has changed since the
// last complete build. Why: CI runs `npm test` once per Node version (20, 22, 24, 26) on one tree,
// and the build's output does not depend on the Node that runs it (tsc 7 and esbuild are native
// binaries; the data and bundle scripts are deterministic), yet each suite rebuilt it: ~7 CPU-s and
// ~7.5 s of wall time each (`npm run build`, Node 20, 2 cores, 6 Dec 2026), four times a CI run
// (the README's quick start builds once more before the suites).
//
//   node scripts/build-stamp.mjs begin   first step of `npm run build`: forgets the stamp, notes the inputs
//   node scripts/build-stamp.mjs end     last step: writes the stamp if the inputs did not change meanwhile
//   node scripts/build-stamp.mjs fresh   exit 0 when the stamp matches the inputs and dist/ now, else 1
//
// The stamp (build/.build-stamp.json, beside the test build, never in dist/ which is published) is
// a SHA-256 of every input file's path and bytes — src/ (without src/generated/, which the build
// writes from data/), data/, scripts/, package.json, package-lock.json,
// node_modules/.package-lock.json (what is installed), the tsconfig files — and one of every file
// the build wrote (dist/ and src/generated/) with its bytes and mode. Any difference, a missing or
// unreadable stamp, or any error means "not fresh": a full build. A build that fails leaves no
// stamp (begin removed it), and one during which an input changed writes none (its output may mix
// both versions).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stampFile = join(root, "build", ".build-stamp.json");
const pendingFile = join(root, "build", ".build-stamp-pending");

const INPUT_DIRS = ["src", "data", "scripts"];
const INPUT_FILES = [
  "package.json",
  "package-lock.json",
  "node_modules/.package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "tsconfig.playground.json",
];
// Written by the build (scripts/build-data.mjs) from data/, which is an input.
const GENERATED = join("src", "generated");

/**
 * Every file under `dir` (relative to the root, `/`-separated), sorted; [] when it is absent.
 * `skip`: a directory left out.
 */
function filesUnder(dir, skip) {
  const out = [];
  const walk = (rel) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = join(rel, entry.name);
      if (path === skip) continue;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  if (existsSync(join(root, dir))) walk(dir);
  return out.map((p) => p.split(sep).join("/")).sort();
}

/** SHA-256 over each file's path, length and bytes (and mode, for outputs: bin.js is executable). */
function digest(paths, withMode) {
  const hash = createHash("sha256");
  for (const path of paths) {
    const full = join(root, path);
    if (!existsSync(full)) {
      hash.update(`${path}\0absent\0`);
      continue;
    }
    const bytes = readFileSync(full);
    const mode = withMode ? (statSync(full).mode & 0o777).toString(8) : "";
    hash.update(`${path}\0${bytes.length}\0${mode}\0`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

const inputsDigest = () =>
  digest([...INPUT_DIRS.flatMap((dir) => filesUnder(dir, GENERATED)), ...INPUT_FILES], false);
// src/generated/ too: the test build (tsconfig.test.json) compiles against it.
const outputsDigest = () => digest([...filesUnder("dist"), ...filesUnder(GENERATED)], true);

const command = process.argv[2];
if (command === "begin") {
  rmSync(stampFile, { force: true });
  mkdirSync(dirname(pendingFile), { recursive: true });
  writeFileSync(pendingFile, inputsDigest());
} else if (command === "end") {
  const before = existsSync(pendingFile) ? readFileSync(pendingFile, "utf8") : "";
  rmSync(pendingFile, { force: true });
  const inputs = inputsDigest();
  if (before === inputs && filesUnder("dist").length > 0) {
    writeFileSync(stampFile, `${JSON.stringify({ inputs, dist: outputsDigest() })}\n`);
  } else {
    console.error("build-stamp: an input changed during the build; the next `npm test` builds again");
  }
} else if (command === "fresh") {
  let fresh = false;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8"));
    fresh = stamp.inputs === inputsDigest() && stamp.dist === outputsDigest();
  } catch {
    fresh = false;
  }
  if (fresh)
    console.error(
      `build-stamp: dist/ is up to date with its inputs (${relative(root, stampFile)}); not rebuilt`,
    );
  process.exit(fresh ? 0 : 1);
} else {
  console.error("usage: node scripts/build-stamp.mjs begin|end|fresh");
  process.exit(2);
}
