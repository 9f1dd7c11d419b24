// What canonurl/core costs a browser or worker bundle: esbuild, minified, no externals, gzip -9.
// Sizes are not machine noise, so they are reported as they are.
import { gzipSync } from "node:zlib";
import { bundleCore } from "../tests/package/bundle-core.js";

const selections: [string, string][] = [
  ["normalize", "normalize"],
  ["classify", "classify"],
  ["normalize + explain + classify + defaultRules", "classify, defaultRules, explain, normalize"],
  ["all of canonurl/core", "*"],
];

/**
 * Prints the minified and gzip size of each selection of canonurl/core, for a browser target.
 *
 * @example
 * ```ts
 * await reportBundleSize();
 * ```
 */
export async function reportBundleSize(): Promise<void> {
  console.log("\n## bundle-size (canonurl/core, esbuild --bundle --minify --platform=browser, gzip -9)");
  console.log("exports | minified KB | gzip KB");
  for (const [name, names] of selections) {
    const source =
      names === "*" ? 'export * from "canonurl/core";' : `export { ${names} } from "canonurl/core";`;
    const { code } = await bundleCore(source, "browser", { minify: true });
    console.log(
      [name, (code.length / 1024).toFixed(1), (gzipSync(code, { level: 9 }).length / 1024).toFixed(1)].join(
        " | ",
      ),
    );
  }
}
