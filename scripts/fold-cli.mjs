// Folds the command line's compiled modules (dist/cli/**, ~30 files) into a few: dist/cli/bin.js,
// the chunks its lazy imports load (main, fleet, serve, …) and dist/cli/offline-worker.js (the
// `--workers` thread). Why: on Node 20 each ES module costs ~0.4 ms of CPU to resolve, read,
// compile and link, and every `canonurl` run loaded the command line file by file (62 modules for
// a one-URL --offline run, 37 folded). Folded, such a run takes ~23 ms less CPU: --version
// 0.220 → 0.197 s, --offline URL 0.230 → 0.206 s (12 runs each, interleaved, Node 20, 2 cores
// beside other work, 5 Dec 2026); the test suite starts the binary ~360 times per Node version.
//
// Only dist/cli is folded: every import that leaves it (the core's facades, the resolver, the
// cache, the fleet) stays an import of the same dist/ file, so each class and table still exists
// once per process (see scripts/bundle-core.mjs), and the lazy imports stay lazy (esbuild splits
// them into chunks). The folded originals are removed; their .d.ts stay. Runs in the build after
// tsc, on dist/ as tsc wrote it (npm run build empties dist/ first).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli");
const MARK = "// Folded by scripts/fold-cli.mjs";

if (readFileSync(join(cli, "bin.js"), "utf8").includes(MARK))
  throw new Error("fold-cli: dist/cli/bin.js is folded already; run the whole build (npm run build)");

// The binary with the lazy imports split off (they stay lazy), and the `--workers` thread's module
// on its own: a thread has a module graph of its own, so sharing chunks with the binary would only
// split the binary's start into more files. The thread's module moves one level up, beside bin.js:
// worker-prestart's new URL("./offline-worker.js", import.meta.url) is read from dist/cli once folded.
const results = [
  await fold({ entryPoints: { bin: join(cli, "bin.js") }, splitting: true, chunkNames: "[name]-[hash]" }),
  await fold({ entryPoints: { "offline-worker": join(cli, "workers", "offline-worker.js") } }),
];
const outputFiles = results.flatMap((r) => r.outputFiles);
const inputs = new Set(results.flatMap((r) => Object.keys(r.metafile.inputs)));

function fold(options) {
  return build({
    ...options,
    absWorkingDir: root,
    bundle: true,
    format: "esm",
    platform: "node",
    packages: "external",
    outdir: cli,
    write: false,
    metafile: true,
    banner: { js: `${MARK}: the command line's modules in a few files. Generated; see src/cli/.` },
    legalComments: "none",
    logLevel: "warning",
    plugins: [
      {
        name: "outside-cli-stays-an-import",
        setup(b) {
          b.onResolve({ filter: /^\./ }, (args) => {
            const target = resolve(args.resolveDir, args.path);
            if (target.startsWith(cli + sep)) return undefined;
            // Written in every output file as is: each one lies in dist/cli.
            const path = relative(cli, target).split(sep).join("/");
            return { path: path.startsWith(".") ? path : `./${path}`, external: true };
          });
        },
      },
    ],
  });
}

const outputs = new Set(outputFiles.map((f) => f.path));
for (const input of inputs) {
  const path = join(root, input);
  if (!path.startsWith(cli + sep))
    throw new Error(`fold-cli: ${input} was folded, but lies outside dist/cli`);
  if (!outputs.has(path)) rmSync(path);
}
for (const file of outputFiles) writeFileSync(file.path, file.contents);
