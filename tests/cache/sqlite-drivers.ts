// The SQLite libraries the sqliteCache tests run on, on this Node. Neither may go missing quietly:
// node:sqlite must load from Node 22.13, better-sqlite3 (a devDependency) everywhere its addon can
// be built; a library that is expected and does not load fails the test file.
import { test } from "node:test";
import { betterSqlite3Driver } from "../../src/cache/better-sqlite3-driver.js";
import { nodeSqliteDriver } from "../../src/cache/node-sqlite-driver.js";
import type { SqliteDriver } from "../../src/cache/sqlite-driver.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);

/** node:sqlite without a flag: Node 22.13+ and every later major (https://nodejs.org/api/sqlite.html). */
export const HAS_NODE_SQLITE = major > 22 || (major === 22 && minor >= 13);

/**
 * Node majors where better-sqlite3@12 is known not to build, with the reason; on these (and only
 * these) a failed load is a reported decision instead of a failure. The tests there run on
 * node:sqlite, which is what `sqliteCache` uses on them anyway.
 */
export const BETTER_SQLITE3_UNBUILDABLE: Readonly<Record<number, string>> = {};

/**
 * The drivers to run the SQLite tests on.
 *
 * @example
 * ```ts
 * for (const d of sqliteDrivers()) console.log(d.name);
 * ```
 */
export function sqliteDrivers(): SqliteDriver[] {
  const drivers: SqliteDriver[] = [];
  const builtin = nodeSqliteDriver();
  if (builtin !== undefined) drivers.push(builtin);
  else if (HAS_NODE_SQLITE) throw new Error(`node:sqlite did not load on Node ${process.version}`);
  try {
    drivers.push(betterSqlite3Driver());
  } catch (error) {
    const reason = BETTER_SQLITE3_UNBUILDABLE[major];
    if (reason === undefined) throw error;
    // Loud: a test line in the report with the reason, and the loader's error beside it.
    test(`better-sqlite3 on Node ${major}: its tests do not run: ${reason}`, (t) => {
      t.diagnostic(`better-sqlite3 did not load: ${String((error as Error).cause ?? error)}`);
    });
  }
  return drivers;
}
