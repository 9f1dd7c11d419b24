/**
 * Removes trailing dots from a DNS host name (`example.com.` → `example.com`). The fully
 * qualified and the relative spelling name the same host on the web. All of them go, so that the
 * step is idempotent; a host of dots only is left alone.
 *
 * A host whose last label would then read as a number is left alone too: the WHATWG host parser
 * reads `127.1` as the IPv4 address 127.0.0.1 (and rejects `a.1`), while `127.1..` is a DNS name
 * that a browser sends to the resolver as it is (WHATWG URL §3.5 "ends in a number"). Stripping
 * the dots there changed which host the URL names, and a second normalize changed it again.
 *
 * @example
 * ```ts
 * stripTrailingDot("example.com."); // "example.com"
 * stripTrailingDot("127.1..");      // "127.1.." (a DNS name, not 127.0.0.1)
 * ```
 */
export function stripTrailingDot(hostname: string): string {
  let end = hostname.length;
  while (end > 0 && hostname.charCodeAt(end - 1) === 0x2e) end--;
  if (end === hostname.length || end === 0) return hostname;
  return endsInNumber(hostname, end) ? hostname : hostname.slice(0, end);
}

// WHATWG URL §3.5 ends-in-a-number checker, on hostname[0, end): the last label is all ASCII
// digits, or "0x" followed by hex digits only (the IPv4 number parser accepts both).
function endsInNumber(hostname: string, end: number): boolean {
  const start = hostname.lastIndexOf(".", end - 1) + 1;
  let i = start;
  let hex = false;
  if (end - start >= 2 && hostname.charCodeAt(i) === 0x30 && (hostname.charCodeAt(i + 1) | 0x20) === 0x78) {
    hex = true;
    i += 2;
  }
  for (; i < end; i++) {
    const c = hostname.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39;
    if (!digit && !(hex && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)) return false;
  }
  return true;
}
