/**
 * Removes trailing dots from a DNS host name (`example.com.` → `example.com`). The fully
 * qualified and the relative spelling name the same host on the web. All of them go, so that the
 * step is idempotent; a host of dots only is left alone.
 *
 * Also left alone: a host whose last label, once the dots are gone, is a number (`127.1..`,
 * `a.1..`). The WHATWG parser reads such a host as an IPv4 address (`127.1` → `127.0.0.1`) or
 * refuses it (`a.1`), and takes one trailing dot as part of the address; with two or more, the
 * browser sends the name as it is to DNS. Stripping them would turn a DNS name into an address or
 * into an invalid URL, and a second normalization would change the result.
 *
 * @example
 * ```ts
 * stripTrailingDot("example.com."); // "example.com"
 * stripTrailingDot("127.1..");      // "127.1.."
 * ```
 */
export function stripTrailingDot(hostname: string): string {
  let end = hostname.length;
  while (end > 0 && hostname.charCodeAt(end - 1) === 0x2e) end--;
  if (end === hostname.length || end === 0) return hostname;
  const stripped = hostname.slice(0, end);
  return endsInANumber(stripped) ? hostname : stripped;
}

// WHATWG URL §3.5 "ends in a number checker", for a host without trailing dots: the last label is
// all ASCII digits, or an IPv4 number in hex ("0x", "0x1F"). Octal is all digits already.
function endsInANumber(host: string): boolean {
  const last = host.slice(host.lastIndexOf(".") + 1);
  return /^(?:[0-9]+|0[xX][0-9a-fA-F]*)$/.test(last);
}
