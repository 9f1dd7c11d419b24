import type BetterSqlite3 from "better-sqlite3";
import { loadOptional } from "./load-optional.js";
import type { SqliteDatabase, SqliteDriver, SqliteStatement, SqliteValue } from "./sqlite-driver.js";

// Errors after which the file is looked at afresh: better-sqlite3 names the extended code.
const FILE_ERROR_CODES = /^SQLITE_(CORRUPT|NOTADB|IOERR|CANTOPEN|READONLY)/;

/**
 * The SQLite cache's driver on better-sqlite3 (an optional peer dependency). Loading it also
 * opens its native addon once, on an in-memory database, so a package installed without its build
 * (`--ignore-scripts`, no compiler) fails here, at the factory, with the `npm i` line, and not at
 * the first cache operation.
 *
 * @example
 * ```ts
 * const db = betterSqlite3Driver().open("/tmp/c.sqlite", 1000);
 * ```
 */
export function betterSqlite3Driver(): SqliteDriver {
  const Database = loadOptional<typeof BetterSqlite3>("better-sqlite3", "sqliteCache", (Loaded) => {
    new Loaded(":memory:").close();
  });
  return {
    name: "better-sqlite3",
    open(path, timeoutMs): SqliteDatabase {
      const db = new Database(path, { timeout: timeoutMs });
      return {
        exec: (sql) => {
          db.exec(sql);
        },
        prepare(sql): SqliteStatement {
          const statement = db.prepare<SqliteValue[], unknown>(sql);
          // pluck() is only for statements that return rows; it throws on the others.
          if (statement.reader) statement.pluck();
          return {
            pluck: (...params) => statement.get(...params),
            pluckAll: (...params) => statement.all(...params),
            run: (...params) => {
              statement.run(...params);
            },
          };
        },
        close: () => {
          db.close();
        },
      };
    },
    isFileError: (error) => FILE_ERROR_CODES.test(String((error as { code?: unknown } | null)?.code)),
  };
}
