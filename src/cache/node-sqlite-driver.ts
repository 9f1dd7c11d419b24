import type { SqliteDatabase, SqliteDriver, SqliteStatement, SqliteValue } from "./sqlite-driver.js";
import { isFileErrorCode } from "./sqlite-driver.js";

/** The part of `node:sqlite` used here (@types/node 20, our floor, does not describe it). */
interface NodeSqliteModule {
  DatabaseSync: new (
    path: string,
    options?: { timeout?: number },
  ) => {
    exec(sql: string): void;
    prepare(sql: string): {
      get(...params: SqliteValue[]): Record<string, unknown> | undefined;
      all(...params: SqliteValue[]): Record<string, unknown>[];
      run(...params: SqliteValue[]): unknown;
    };
    close(): void;
  };
}

// Node 22 prints "ExperimentalWarning: SQLite is an experimental feature…" once, when node:sqlite
// first loads (Node 24 and 26 print nothing). That line would reach a user's stderr for a choice
// canonurl made, so it is dropped, and nothing else: the filter is on process.emitWarning only
// for the synchronous load, matches this one warning by type and text, and passes every other.
const SQLITE_WARNING = /^SQLite is an experimental feature/;

function isSqliteWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions === "string"
      ? typeOrOptions
      : (typeOrOptions as { type?: unknown } | undefined)?.type;
  const message = typeof warning === "string" ? warning : (warning as Error | undefined)?.message;
  return type === "ExperimentalWarning" && typeof message === "string" && SQLITE_WARNING.test(message);
}

let loaded: NodeSqliteModule | null | undefined;

/**
 * The built-in `node:sqlite` (Node 22.13+ without a flag), or undefined on a Node without it.
 * Its ExperimentalWarning on Node 22 is kept from the user's stderr.
 *
 * @example
 * ```ts
 * loadNodeSqlite() === undefined; // true on Node 20
 * ```
 */
export function loadNodeSqlite(): NodeSqliteModule | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule !== "function") {
    loaded = null;
    return undefined;
  }
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: unknown, warning: unknown, ...rest: unknown[]): void {
    if (isSqliteWarning(warning, rest[0])) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const mod = getBuiltinModule.call(process, "node:sqlite") as NodeSqliteModule | undefined;
    loaded = typeof mod?.DatabaseSync === "function" ? mod : null;
  } catch {
    // Node 22.5–22.12 has node:sqlite only behind --experimental-sqlite.
    loaded = null;
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded ?? undefined;
}

function firstColumn(row: Record<string, unknown> | undefined): unknown {
  if (row === undefined) return undefined;
  for (const key in row) return row[key];
  return undefined;
}

/**
 * The SQLite cache's driver on the built-in `node:sqlite`, or undefined where the running Node
 * does not have it.
 *
 * @example
 * ```ts
 * const db = nodeSqliteDriver()?.open("/tmp/c.sqlite", 1000);
 * ```
 */
export function nodeSqliteDriver(): SqliteDriver | undefined {
  const mod = loadNodeSqlite();
  if (mod === undefined) return undefined;
  return {
    name: "node:sqlite",
    open(path, timeoutMs): SqliteDatabase {
      const db = new mod.DatabaseSync(path, { timeout: timeoutMs });
      return {
        exec: (sql) => db.exec(sql),
        prepare(sql): SqliteStatement {
          const statement = db.prepare(sql);
          return {
            pluck: (...params) => firstColumn(statement.get(...params)),
            pluckAll: (...params) => statement.all(...params).map(firstColumn),
            run: (...params) => {
              statement.run(...params);
            },
          };
        },
        close: () => db.close(),
      };
    },
    // node:sqlite throws Error { code: "ERR_SQLITE_ERROR", errcode: <extended result code> }.
    isFileError: (error) => {
      const errcode = (error as { errcode?: unknown } | null)?.errcode;
      return typeof errcode === "number" && isFileErrorCode(errcode);
    },
  };
}
