// The Internet Archive's session-id stripping (archive-commons URLRegexTransformer, as the surt
// package carries it), rewritten as scanners: the regexes there start with a greedy `^(.*)` and
// one of them has `[^&]+` after it, which backtracks quadratically on a long query
// ("cfid=cfid=cfid=…"). Each scanner below is linear and gives what the regex gives: the LAST
// place the id can be removed (greedy `.*`).

const SESSION_NAME = /sid=|sessionid|cfid=/i;
// Only an ASP.NET page can carry a cookieless session segment.
const ASPX = /\.aspx/i;

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

// `(?:&(.*))?$` after the id: the id ends the query or an `&` follows. Returns the query with
// the id removed: the text before it, plus what follows the `&` (if anything).
function cut(query: string, start: number, end: number): string | undefined {
  if (end === query.length) return query.slice(0, start);
  if (query.charCodeAt(end) !== 0x26) return undefined;
  return query.slice(0, start) + query.slice(end + 1);
}

// `<key><value>`: for each occurrence of `key` from the last one back, the value matcher says
// where the id ends (or -1); the first that cuts wins.
function stripLast(query: string, lower: string, key: string, value: (at: number) => number): string {
  for (let at = lower.lastIndexOf(key); at !== -1; at = at === 0 ? -1 : lower.lastIndexOf(key, at - 1)) {
    const end = value(at + key.length);
    if (end === -1) continue;
    const out = cut(query, at, end);
    if (out !== undefined) return out;
  }
  return query;
}

function run(query: string, at: number, count: number, ok: (c: number) => boolean): number {
  if (at + count > query.length) return -1;
  for (let i = at; i < at + count; i++) if (!ok(query.charCodeAt(i))) return -1;
  return at + count;
}

/**
 * Removes session ids from a query: `jsessionid=`, `phpsessid=`, `sid=` with 32 letters or
 * digits, `ASPSESSIONIDxxxxxxxx=` with 24 letters, and `cfid=…&cftoken=…` (case-insensitive),
 * in that order, each once.
 *
 * @example
 * ```ts
 * stripQuerySessionId("PHPSESSID=0123456789abcdefghijklemopqrstuv&action=profile"); // "action=profile"
 * ```
 */
export function stripQuerySessionId(query: string): string {
  // Every name holds "sessionid" (jsessionid, aspsessionid), "sid=" (phpsessid, sid) or is "cfid=".
  // One case-insensitive test, no lowercased copy: the copy was made for every query holding
  // "id" (id=, gclid=, fbclid=…), most of the bench corpus's. No code unit outside ASCII folds onto
  // these letters, in the test or in toLowerCase, so it answers as the lowercased copy would.
  if (!SESSION_NAME.test(query)) return query;
  let q = query;
  // The lowercased text is made again only after a cut.
  let lower = q.toLowerCase();
  for (const key of ["jsessionid=", "phpsessid=", "sid="]) {
    if (!lower.includes(key)) continue;
    const next = stripLast(q, lower, key, (at) => run(q, at, 32, isAlnum));
    if (next !== q) {
      q = next;
      lower = q.toLowerCase();
    }
  }
  if (lower.includes("aspsessionid")) {
    const next = stripLast(q, lower, "aspsessionid", (at) => {
      const eq = run(q, at, 8, isAlpha);
      if (eq === -1 || q.charCodeAt(eq) !== 0x3d) return -1;
      return run(q, eq + 1, 24, isAlpha);
    });
    if (next !== q) {
      q = next;
      lower = q.toLowerCase();
    }
  }
  if (lower.includes("cfid=")) {
    // nextAmp[i]: the first "&" at or after i; built once so each candidate is O(1).
    const nextAmp = new Int32Array(q.length + 1);
    nextAmp[q.length] = q.length;
    for (let i = q.length - 1; i >= 0; i--)
      nextAmp[i] = q.charCodeAt(i) === 0x26 ? i : (nextAmp[i + 1] as number);
    q = stripLast(q, lower, "cfid=", (at) => {
      const amp = nextAmp[at] as number;
      if (amp === at || amp === q.length || !lower.startsWith("cftoken=", amp + 1)) return -1;
      const valueStart = amp + 1 + "cftoken=".length;
      const end = nextAmp[valueStart] as number;
      return end === valueStart ? -1 : end;
    });
  }
  return q;
}

// `(S(…24…))/` with one or more `x(…24…)` groups, or `(…24…)/`, as a whole path segment.
function sessionSegmentEnd(path: string, at: number): number {
  if (path.charCodeAt(at) !== 0x28) return -1;
  const plain = run(path, at + 1, 24, isAlnum);
  if (plain !== -1 && path.charCodeAt(plain) === 0x29 && path.charCodeAt(plain + 1) === 0x2f)
    return plain + 2;
  let i = at + 1;
  let groups = 0;
  while (isAlpha(path.charCodeAt(i)) && path.charCodeAt(i + 1) === 0x28) {
    const close = run(path, i + 2, 24, isAlnum);
    if (close === -1 || path.charCodeAt(close) !== 0x29) break;
    i = close + 1;
    groups++;
  }
  if (groups > 0 && path.charCodeAt(i) === 0x29 && path.charCodeAt(i + 1) === 0x2f) return i + 2;
  return -1;
}

/**
 * Removes an ASP.NET cookieless session segment (`/(S(…))/` or `/(…)/` with 24-character ids)
 * from a path that goes on to an `.aspx` page.
 *
 * @example
 * ```ts
 * stripPathSessionId("/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx"); // "/mileg.aspx"
 * ```
 */
export function stripPathSessionId(path: string): string {
  // ".aspx" in any case has a dot: most paths are settled without a lowercased copy.
  if (!path.includes(".") || !ASPX.test(path)) return path;
  const aspx = path.toLowerCase().lastIndexOf(".aspx");
  if (aspx === -1) return path;
  for (
    let slash = path.lastIndexOf("/", aspx);
    slash !== -1;
    slash = slash === 0 ? -1 : path.lastIndexOf("/", slash - 1)
  ) {
    const end = sessionSegmentEnd(path, slash + 1);
    // `[^?]+\.aspx`: at least one character between the segment and ".aspx".
    if (end !== -1 && aspx >= end + 1) return path.slice(0, slash + 1) + path.slice(end);
  }
  return path;
}
