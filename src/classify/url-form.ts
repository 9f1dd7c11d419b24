/**
 * The structural form of a raw, untrusted URL string, as the urlform seed names it.
 *
 * - `empty`: nothing left after the WHATWG input preprocessing.
 * - `malformed`: the canonicalized parse rejects it; no host, scheme, port or userinfo fact.
 * - `absolute`: a scheme and a host (`https://host/x`).
 * - `hidden-host`: a scheme but no host in the parse (`https:/host/x`, `javascript:x`, `host:443/x`);
 *   for http, https, ws, wss and ftp the browser's reading is recovered into the facts.
 * - `protocol-relative`: a leading `//` (`//host/x`, or the ambiguous host-less `///x`, `//`).
 * - `schemeless-host`: no scheme, not rooted (`host/x`); an address bar navigates to `host`.
 * - `relative`: a rooted path with no host (`/x`).
 *
 * @example
 * ```ts
 * const c: UrlFormClass = classify("//evil.test/x").class; // "protocol-relative"
 * ```
 */
export type UrlFormClass =
  | "empty"
  | "malformed"
  | "absolute"
  | "hidden-host"
  | "protocol-relative"
  | "schemeless-host"
  | "relative";

/**
 * The facts `classify()` extracts from one raw string. Judgment-free: the caller decides what to
 * publish or drop.
 *
 * @example
 * ```ts
 * const f: UrlForm = classify("https://trusted@evil.test/");
 * if (f.hasUserInfo) console.log(`spoof aimed at ${f.host}`); // evil.test
 * ```
 */
export interface UrlForm {
  /** The structural class; every input has exactly one. */
  class: UrlFormClass;
  /** WHATWG-preprocessed input: edges trimmed (C0, space and Unicode White_Space), tab/CR/LF removed, backslashes kept. Safe to emit. */
  trimmed: string;
  /** Browser-visible host, A-Z folded only (non-ASCII survives unfolded); `""` when none. IPv6 literals come without brackets. */
  host: string;
  /** Lowercase scheme; `""` when none or malformed. */
  scheme: string;
  /** The port as written (digits, not range-checked); `""` when none. */
  port: string;
  /** A `\` anywhere in `trimmed`. */
  hasBackslash: boolean;
  /** A tab, CR or LF was removed from inside the edge-trimmed input (a smuggling attempt). */
  hasTabOrNewline: boolean;
  /** A `user@` authority in the reading that supplied `host` (the visual-spoofing vector). */
  hasUserInfo: boolean;
  /** A `schemeless-host` or `hidden-host` whose authority reparse failed: a host may exist but cannot be extracted. */
  hostUnrecoverable: boolean;
  /**
   * The string starts with a script-bearing scheme (`javascript:`, `vbscript:`, `data:`): followed,
   * it runs code or shows a document of its own instead of leading to a host. canonurl's own fact,
   * beside the urlform seed's; read from the scheme alone, so it holds for `malformed` strings too.
   */
  scriptScheme: boolean;
}
