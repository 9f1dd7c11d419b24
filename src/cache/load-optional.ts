import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * Loads a CommonJS dependency synchronously, the first time a backend that needs it is created,
 * so that importing canonurl never loads SQLite or Redis clients (api.md). A missing or unbuilt
 * package throws an Error naming the package, with the loader's error as `cause`.
 *
 * @example
 * ```ts
 * const Database = loadOptional<typeof import("better-sqlite3")>("better-sqlite3");
 * ```
 */
export function loadOptional<T>(name: string): T {
  try {
    return require(name) as T;
  } catch (cause) {
    throw new Error(
      `canonurl: the cache needs the package "${name}", which could not be loaded (npm install ${name})`,
      {
        cause,
      },
    );
  }
}
