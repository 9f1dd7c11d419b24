/** One link of a `Link` header field (RFC 8288 §3), before its target is resolved. */
export interface LinkValue {
  /** The URI-Reference between `<` and `>`, as written. */
  target: string;
  /** Relation types of the first `rel` parameter, lowercased (RFC 8288 §2.1.1: case-insensitive). */
  rel: string[];
  /** Parameters by lowercased name; the first occurrence of a name wins (RFC 8288 §3.3, §3.4). */
  params: Record<string, string>;
}

// RFC 9110 §5.6.3: OWS / BWS are spaces and horizontal tabs.
function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

class Cursor {
  index = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.index >= this.text.length;
  }
  peek(): number {
    return this.text.charCodeAt(this.index);
  }
  skipWhitespace(): void {
    while (!this.done && isWhitespace(this.peek())) this.index++;
  }
  /** Consumes up to (not including) the first character for which `stop` holds. */
  takeUntil(stop: (code: number) => boolean): string {
    const start = this.index;
    while (!this.done && !stop(this.peek())) this.index++;
    return this.text.slice(start, this.index);
  }
  /** Skips to just past the next top-level `,` (outside quotes and `<…>`): recovery from a bad link. */
  skipElement(): void {
    while (!this.done) {
      const code = this.peek();
      if (code === 0x2c) {
        this.index++;
        return;
      }
      if (code === 0x22) parseQuotedString(this);
      else if (code === 0x3c) {
        this.takeUntil((c) => c === 0x3e);
        this.index++;
      } else this.index++;
    }
  }
}

// RFC 8288 Appendix B.4: a quoted-string; a backslash escapes the next character.
function parseQuotedString(cursor: Cursor): string {
  let output = "";
  cursor.index++; // the opening DQUOTE
  while (!cursor.done) {
    const code = cursor.peek();
    if (code === 0x5c) {
      cursor.index++;
      if (cursor.done) return output;
      output += cursor.text[cursor.index];
      cursor.index++;
    } else if (code === 0x22) {
      cursor.index++;
      return output;
    } else {
      output += cursor.text[cursor.index];
      cursor.index++;
    }
  }
  return output;
}

// RFC 8288 Appendix B.3: parameters up to the `,` that ends this link-value.
function parseParameters(cursor: Cursor): Array<[string, string]> {
  const params: Array<[string, string]> = [];
  for (;;) {
    cursor.skipWhitespace();
    if (cursor.done || cursor.peek() !== 0x3b) return params;
    cursor.index++;
    cursor.skipWhitespace();
    const name = cursor.takeUntil((c) => isWhitespace(c) || c === 0x3d || c === 0x3b || c === 0x2c);
    cursor.skipWhitespace();
    let value = "";
    if (!cursor.done && cursor.peek() === 0x3d) {
      cursor.index++;
      cursor.skipWhitespace();
      if (!cursor.done && cursor.peek() === 0x22) value = parseQuotedString(cursor);
      else value = cursor.takeUntil((c) => c === 0x3b || c === 0x2c).trim();
    }
    // RFC 8187 ext-values (`title*`) are kept undecoded: no parameter we act on uses them.
    if (name !== "") params.push([name.toLowerCase(), value]);
  }
}

function parseField(field: string, links: LinkValue[]): void {
  const cursor = new Cursor(field);
  while (!cursor.done) {
    // RFC 9110 §5.6.1: empty list elements (`, ,`) are ignored.
    cursor.skipWhitespace();
    if (cursor.done) return;
    if (cursor.peek() === 0x2c) {
      cursor.index++;
      continue;
    }
    if (cursor.peek() !== 0x3c) {
      // Appendix B.2 stops at a malformed link-value; we skip only that element so one bad link
      // does not hide a canonical declared after it.
      cursor.skipElement();
      continue;
    }
    cursor.index++;
    const target = cursor.takeUntil((c) => c === 0x3e);
    if (cursor.done) return; // unterminated `<…`: nothing after it can be trusted
    cursor.index++;
    const pairs = parseParameters(cursor);
    const params: Record<string, string> = {};
    for (const [name, value] of pairs) if (!Object.hasOwn(params, name)) params[name] = value;
    const rel = (params.rel ?? "")
      .split(/[ \t\n\r\f]+/)
      .filter((token) => token !== "")
      .map((token) => token.toLowerCase());
    links.push({ target: target.trim(), rel, params });
    cursor.skipWhitespace();
    if (!cursor.done && cursor.peek() !== 0x2c) cursor.skipElement();
  }
}

/**
 * Parses `Link` header fields (RFC 8288 §3, parsing per Appendix B.2–B.4): several links per field,
 * several fields, quoted parameter values that contain `,` `;` or `<`, and `rel` as a
 * whitespace-separated, case-insensitive token list. Never throws; malformed elements are skipped.
 *
 * @example
 * ```ts
 * parseLinkHeader('<https://a.test/x>; rel="Canonical preload"');
 * // [{ target: "https://a.test/x", rel: ["canonical", "preload"], params: { rel: "Canonical preload" } }]
 * ```
 */
export function parseLinkHeader(fields: string | readonly string[] | undefined): LinkValue[] {
  const links: LinkValue[] = [];
  if (fields === undefined) return links;
  // Each field is parsed on its own: joining them first would let a quoted `,` in one field
  // split a link that is whole in another.
  for (const field of typeof fields === "string" ? [fields] : fields) parseField(field, links);
  return links;
}

/**
 * The absolute target of the first `rel=canonical` link whose context is `requestUrl`, resolved
 * against it (RFC 8288 §3.1, §3.2: an `anchor` naming another resource changes the context, so such
 * a link says nothing about this one). `null` when there is none or it cannot be resolved.
 *
 * @example
 * ```ts
 * findLinkCanonical('</a>; rel=canonical', new URL("https://x.test/b?c")); // "https://x.test/a"
 * ```
 */
export function findLinkCanonical(
  fields: string | readonly string[] | undefined,
  requestUrl: URL,
): string | null {
  for (const link of parseLinkHeader(fields)) {
    if (!link.rel.includes("canonical")) continue;
    if (link.params.anchor !== undefined) {
      const anchor = URL.parse(link.params.anchor, requestUrl.href);
      if (anchor === null || withoutFragment(anchor) !== withoutFragment(requestUrl)) continue;
    }
    const target = URL.parse(link.target, requestUrl.href);
    if (target !== null) return target.href;
  }
  return null;
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}
