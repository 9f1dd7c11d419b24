/** One prepared statement, the part of it the SQLite cache uses. */
/** A value bound to a statement parameter. */
export type SqliteValue = string | number | Uint8Array;

export interface SqliteStatement {
  /** The first column of the first row, or undefined when there is no row. */
  pluck(...params: SqliteValue[]): unknown;
  /** The first column of every row. */
  pluckAll(...params: SqliteValue[]): unknown[];
  run(...params: SqliteValue[]): void;
}

/** An open database file, the part of it the SQLite cache uses. */
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** The SQLite libraries the cache can run on. */
export type SqliteDriverName = "node:sqlite" | "better-sqlite3";

/** One SQLite library behind the calls the cache makes, so both pass one contract suite. */
export interface SqliteDriver {
  readonly name: SqliteDriverName;
  /** Opens (creating) the file; a statement waits up to `timeoutMs` for another process's lock. */
  open(path: string, timeoutMs: number): SqliteDatabase;
  /**
   * Whether the error means the file itself is broken or gone (corrupt, not a database, an I/O
   * error, cannot open, read-only), after which the handle is dropped and the file opened afresh.
   */
  isFileError(error: unknown): boolean;
}

// SQLite's primary result codes (https://sqlite.org/rescode.html): the low byte of an extended one.
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/**
 * Whether a numeric SQLite result code (primary or extended) is one of a broken or gone file.
 *
 * @example
 * ```ts
 * isFileErrorCode(11); // true: SQLITE_CORRUPT
 * isFileErrorCode(5); // false: SQLITE_BUSY, another process holds the lock
 * ```
 */
export function isFileErrorCode(code: number): boolean {
  const primary = code & 0xff;
  return (
    primary === SQLITE_READONLY ||
    primary === SQLITE_IOERR ||
    primary === SQLITE_CORRUPT ||
    primary === SQLITE_CANTOPEN ||
    primary === SQLITE_NOTADB
  );
}
