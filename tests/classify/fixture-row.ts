/**
 * One conformance row, in the urlform fixture schema (`class` with underscores; absent facts are
 * their zero value), plus canonurl's optional `browser` column: what the WHATWG parser (Node's
 * `URL`) reports as the hostname, or `"FAIL"`.
 *
 * @example
 * ```ts
 * const row: FixtureRow = { name: "spoof", input: "https://a@b.test/", class: "absolute", host: "b.test", scheme: "https", hasUserInfo: true };
 * ```
 */
export interface FixtureRow {
  name: string;
  input: string;
  class: string;
  host?: string;
  scheme?: string;
  port?: string;
  hasBackslash?: boolean;
  hasTabOrNewline?: boolean;
  hasUserInfo?: boolean;
  hostUnrecoverable?: boolean;
  browser?: string;
  /** Set on rows where urlform's (Go) reading and the browser's differ on purpose; docs/classify.md lists each. */
  divergence?: boolean;
  note?: string;
}
