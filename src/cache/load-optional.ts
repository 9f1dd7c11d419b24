import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The `code` of the Error thrown when an optional peer dependency is missing or cannot load. */
export const MISSING_PEER = "ERR_CANONURL_MISSING_PEER";

/**
 * The Error for a missing optional peer dependency: names the package, what needs it and the
 * `npm i` command that installs it; `code` is {@link MISSING_PEER}, `cause` the loader's error.
 *
 * @example
 * ```ts
 * throw missingPeerError("redis", "redisCache", new Error("Cannot find module 'redis'"));
 * ```
 */
export function missingPeerError(
  name: string,
  feature: string,
  cause: unknown,
  why = `${feature} needs the package ${name}, which could not be loaded`,
): Error & { code: string; packageName: string } {
  const error = new Error(`canonurl: ${why}; install it with: npm i ${name}`, { cause }) as Error & {
    code: string;
    packageName: string;
  };
  error.code = MISSING_PEER;
  error.packageName = name;
  return error;
}

/**
 * Loads a CommonJS optional peer dependency synchronously, the first time a backend that needs it
 * is created, so that importing canonurl never loads SQLite or Redis clients (api.md §5). A
 * missing or unbuilt package throws {@link missingPeerError}. `check` runs on the loaded module
 * (better-sqlite3 opens its native addon there: the package loads without it).
 *
 * @example
 * ```ts
 * const Database = loadOptional<typeof import("better-sqlite3")>("better-sqlite3", "sqliteCache");
 * ```
 */
export function loadOptional<T>(name: string, feature: string, check?: (loaded: T) => void): T {
  try {
    const loaded = require(name) as T;
    check?.(loaded);
    return loaded;
  } catch (cause) {
    throw missingPeerError(name, feature, cause);
  }
}
