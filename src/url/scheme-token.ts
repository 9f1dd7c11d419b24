/**
 * Length of the leading `scheme:` token of `input` (the colon included), or 0 when there is none.
 *
 * RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`. A token followed by a port
 * (`example.com:8080`, `localhost:3000/x`) is read as host and port, not as a scheme, because that
 * is what a person typing it means; url_canonicalize gives such input `http://` as well. A colon
 * later in the string (`example.com/a:b`) is never a scheme.
 *
 * @example
 * ```ts
 * schemeTokenLength("HTTPS://example.com"); // 6
 * schemeTokenLength("example.com:8080/x");  // 0
 * ```
 */
export function schemeTokenLength(input: string): number {
  const first = input.charCodeAt(0);
  if (!isAlpha(first)) return 0;
  let i = 1;
  for (; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x3a /* : */) break;
    if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) return 0;
  }
  if (i >= input.length) return 0;
  // host:port — digits up to the end or the next "/", "?" or "#".
  let j = i + 1;
  while (j < input.length && isDigit(input.charCodeAt(j))) j++;
  if (j > i + 1 && (j === input.length || isPathStart(input.charCodeAt(j)))) return 0;
  return i + 1;
}

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isPathStart(c: number): boolean {
  return c === 0x2f || c === 0x3f || c === 0x23;
}
