// WHATWG URL §3.5 IPv4 parser (numbers in decimal, 0x hex or 0 octal; one to four parts, the last
// filling the remaining bytes), used by the archive keys, which read hosts themselves when no
// canonurl normalization ran first (preset "none", schemes other than http(s)).

const MAX_PARTS = 4;

function parseNumber(part: string): number | undefined {
  if (part === "") return undefined;
  let radix = 10;
  let digits = part;
  if (part.length >= 2 && part[0] === "0" && (part[1] === "x" || part[1] === "X")) {
    radix = 16;
    digits = part.slice(2);
  } else if (part.length >= 2 && part[0] === "0") {
    radix = 8;
    digits = part.slice(1);
  }
  if (digits === "") return 0;
  // Bounded: a part longer than this cannot be an IPv4 number (2^32 in octal has 11 digits).
  if (digits.length > 12) return Number.POSITIVE_INFINITY;
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return undefined;
  return Number.parseInt(digits, radix);
}

/**
 * The dotted quad `host` spells as an IPv4 address, or `undefined` when it is not one
 * (`3279880203` → `195.127.0.11`, `0x7f.1` → `127.0.0.1`, `017.0.0.1` → `15.0.0.1`).
 *
 * @example
 * ```ts
 * ipv4DottedQuad("0x7f.1"); // "127.0.0.1"
 * ipv4DottedQuad("example.com"); // undefined
 * ```
 */
export function ipv4DottedQuad(host: string): string | undefined {
  let text = host.endsWith(".") ? host.slice(0, -1) : host;
  if (text === "" || text.length > 64) return undefined;
  const parts = text.split(".", MAX_PARTS + 1);
  if (parts.length > MAX_PARTS) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parseNumber(part);
    if (value === undefined) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  for (const n of numbers) if (n > 255) return undefined;
  if (last >= 256 ** (MAX_PARTS - numbers.length)) return undefined;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  text = `${Math.floor(value / 2 ** 24) % 256}.${Math.floor(value / 2 ** 16) % 256}.${Math.floor(value / 256) % 256}.${value % 256}`;
  return text;
}

/**
 * True when `host` is an IPv6 literal (`[…]`) or reads as an IPv4 address in any WHATWG
 * spelling (urlcanon leaves such hosts unreversed in a SURT).
 *
 * @example
 * ```ts
 * isIpHost("0x80"); // true
 * isIpHost("x.y.z"); // false
 * ```
 */
export function isIpHost(host: string): boolean {
  return host.startsWith("[") || ipv4DottedQuad(host) !== undefined;
}
