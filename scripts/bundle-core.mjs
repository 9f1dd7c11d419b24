// Folds the pure core's compiled modules (everything dist/core.js imports, ~80 files) into one
// module, dist/core-modules.js, and turns each of those files into a one-line facade that
// re-exports its own names from it. Why: on Node 20 each ES module costs ~0.4 ms of CPU to
// resolve, read, compile and link, so loading canonurl/core file by file cost ~35 ms of its cold
// start (npm run bench, cold-start group). Why facades, not a copy per entry: every class and
// table exists once, in core-modules.js, whoever imports it (canonurl, canonurl/core, the CLI, a
// worker), so `instanceof` and the built-in rules' identity hold across entries; every dist path
// and its .d.ts stay as tsc wrote them.
//
// One module is what Node wants, not what a bundler wants: esbuild or webpack drop an unused
// *module* of a package marked sideEffects: false, but keep every top-level call in one they use,
// so `import { classify }` would carry the built-in rules (13 KB gzip instead of 3). The files as
// tsc wrote them are therefore kept under dist/portable/, and package.json sends the "node"
// condition of canonurl/core to the facades and "default" (browsers, workers, bundlers) there.
// Runs in the build after tsc and check-data.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const BUNDLE = "core-modules.js";

// Over facades it would fold the facades: it runs once per tsc output (npm run build empties dist/).
if (existsSync(join(dist, BUNDLE)))
  throw new Error(`bundle-core: dist/${BUNDLE} exists already; run the whole build (npm run build)`);

// The files canonurl/core loads: the import graph of dist/core.js, as esbuild walks it.
const { metafile } = await build({
  entryPoints: [join(dist, "core.js")],
  absWorkingDir: root,
  bundle: true,
  write: false,
  metafile: true,
  format: "esm",
  platform: "neutral",
  logLevel: "error",
});
const files = Object.keys(metafile.inputs)
  .map((path) => relative(dist, join(root, path)))
  .sort();
if (files.some((f) => f.startsWith("..") || !f.endsWith(".js")))
  throw new Error(`bundle-core: the core's graph leaves dist/: ${files.join(", ")}`);

// Each file's export names, under an alias unique to the file (two files may export one name).
const exportsOf = new Map();
for (const file of files)
  exportsOf.set(file, Object.keys(await import(pathToFileURL(join(dist, file)).href)).sort());
const alias = (i, name) => `${name === "default" ? "default_" : name}$${i}`;

const entry = join(dist, "core-modules.entry.js");
writeFileSync(
  entry,
  files
    .map((file, i) => {
      const names = exportsOf.get(file);
      return names.length === 0
        ? `import "./${file}";`
        : `export { ${names.map((n) => `${n} as ${alias(i, n)}`).join(", ")} } from "./${file}";`;
    })
    .join("\n"),
);
const banner = `// The pure core's modules in one file: see scripts/bundle-core.mjs. Each dist/ file of the core
// re-exports its names from here. Generated; the sources are under src/.`;
try {
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outfile: join(dist, BUNDLE),
    banner: { js: banner },
    legalComments: "none",
    logLevel: "warning",
  });
} finally {
  rmSync(entry);
}
// The bundle must have brought in nothing the core may not use (the wall test checks the sources).
if (/\bfrom\s*["']node:|\bimport\s*\(/.test(readFileSync(join(dist, BUNDLE), "utf8")))
  throw new Error("bundle-core: the core bundle imports something");

// The file-by-file tree for bundlers: closed under its imports, since it is the whole graph.
for (const file of files) {
  mkdirSync(dirname(join(dist, "portable", file)), { recursive: true });
  copyFileSync(join(dist, file), join(dist, "portable", file));
}

files.forEach((file, i) => {
  const names = exportsOf.get(file);
  const from = relative(dirname(join(dist, file)), join(dist, BUNDLE));
  const spec = from.startsWith(".") ? from : `./${from}`;
  writeFileSync(
    join(dist, file),
    names.length === 0
      ? `import "${spec}";\n`
      : `export { ${names.map((n) => `${alias(i, n)} as ${n}`).join(", ")} } from "${spec}";\n`,
  );
});
console.log(`bundle-core: ${files.length} modules -> dist/${BUNDLE} (file by file: dist/portable/)`);
