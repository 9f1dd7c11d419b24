import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { fromRoot } from "../helpers/paths.js";

/** One bundle of canonurl/core as a browser or worker build would make it. */
export interface CoreBundle {
  code: string;
  /** Imports the bundle still makes at run time (an external or an unresolved module): none expected. */
  imports: Metafile["outputs"][string]["imports"];
  /** The package files esbuild pulled in, relative to the repository root. */
  inputs: string[];
}

/** Targets a user of canonurl/core bundles for. */
export type BundleTarget = "browser" | "worker";

/**
 * Bundles `source` (an ES module importing from "canonurl/core") the way a user's bundler does: the
 * package is resolved by name through its `exports` map, from a project whose node_modules links to
 * this repository, with no externals. A `node:` import or an unresolvable module fails the build.
 */
export async function bundleCore(
  source: string,
  target: BundleTarget,
  options: { minify?: boolean; format?: "esm" | "iife"; globalName?: string } = {},
): Promise<CoreBundle> {
  const project = mkdtempSync(join(tmpdir(), "canonurl-bundle-"));
  try {
    mkdirSync(join(project, "node_modules"));
    symlinkSync(fromRoot(), join(project, "node_modules", "canonurl"), "dir");
    const result = await build({
      stdin: { contents: source, resolveDir: project, sourcefile: "app.js", loader: "js" },
      bundle: true,
      write: false,
      metafile: true,
      logLevel: "silent",
      minify: options.minify ?? false,
      format: options.format ?? "esm",
      ...(options.globalName === undefined ? {} : { globalName: options.globalName }),
      // A Cloudflare-style worker: esbuild's neutral platform (no node built-ins, no browser
      // field defaults) with the conditions worker runtimes resolve.
      ...(target === "browser"
        ? { platform: "browser" as const }
        : {
            platform: "neutral" as const,
            conditions: ["worker", "browser"],
            mainFields: ["module", "main"],
          }),
      target: "es2022",
      outfile: join(project, "out.js"),
    });
    const output = result.outputFiles?.[0];
    if (output === undefined) throw new Error("esbuild wrote no output");
    const meta = Object.values(result.metafile.outputs)[0];
    return {
      code: output.text,
      imports: meta?.imports ?? [],
      inputs: Object.keys(result.metafile.inputs).map((p) => p.replace(/^.*?node_modules\/canonurl\//, "")),
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
