import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built playground: the page, its script and its stylesheet, read once. */
export interface PlaygroundAssets {
  readonly html: string;
  readonly script: string;
  readonly style: string;
}

/**
 * Where the build puts the playground (`dist/serve/playground/`): beside this module once built.
 *
 * @example
 * ```ts
 * readPlaygroundAssets(defaultAssetsDir());
 * ```
 */
export function defaultAssetsDir(): string {
  return fileURLToPath(new URL("./playground/", import.meta.url));
}

/**
 * Reads the playground's three files from `dir`, or returns `null` when they are not there (a
 * source checkout that was not built): the service still runs, and `/` says what is missing.
 *
 * @example
 * ```ts
 * const assets = readPlaygroundAssets("dist/serve/playground");
 * ```
 */
export function readPlaygroundAssets(dir: string): PlaygroundAssets | null {
  try {
    return {
      html: readFileSync(join(dir, "index.html"), "utf8"),
      script: readFileSync(join(dir, "playground.js"), "utf8"),
      style: readFileSync(join(dir, "playground.css"), "utf8"),
    };
  } catch {
    return null;
  }
}

/**
 * The Content-Security-Policy of every answer: the page may load only its own script and
 * stylesheet and talk only to this service; no inline script, no external origin, no framing.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
