// Builds the playground served at / by `canonurl serve`: bundles its script (the pure core, for the
// browser) with esbuild, copies the page and stylesheet, into dist/serve/playground/. Fails if the
// bundle would pull in anything that needs Node, so the page keeps working offline in any browser.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const source = join("src", "serve", "playground");
const out = join("dist", "serve", "playground");
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [join(source, "entry.ts")],
  bundle: true,
  platform: "browser",
  format: "iife",
  target: ["es2022"],
  minify: true,
  legalComments: "none",
  outfile: join(out, "playground.js"),
  metafile: true,
  logLevel: "warning",
});
const inputs = Object.keys(result.metafile.inputs);
const effectful = inputs.filter(
  (path) => /(^|\/)(resolve|cache|cli|serve\/(?!playground\/))\//.test(path) || path.startsWith("node:"),
);
if (effectful.length > 0) {
  console.error(`playground bundle pulls in effectful modules:\n  ${effectful.join("\n  ")}`);
  process.exit(1);
}
copyFileSync(join(source, "index.html"), join(out, "index.html"));
copyFileSync(join(source, "playground.css"), join(out, "playground.css"));
const bytes = result.metafile.outputs[join(out, "playground.js")]?.bytes ?? 0;
console.log(`playground: ${inputs.length} modules, ${(bytes / 1024).toFixed(1)} kB -> ${out}`);
