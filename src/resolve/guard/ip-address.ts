import { createRequire } from "node:module";

type IpAddrJs = typeof import("ipaddr.js");

let ipaddrJs: IpAddrJs | undefined;

// ipaddr.js is CommonJS, and on Node 20 the first CommonJS package an ES module graph loads costs
// ~70 ms of CPU (the CJS loader's set-up, measured under BENCH_GROUP=cold-start): about half of
// what `import("canonurl")` cost over a bare node. It is required on first use (an IPv6 text, an
// IPv6 formatting call) instead, synchronously, so parseIp and parseCidr stay synchronous; the IPv4
// paths below never need it.
function ipaddr(): IpAddrJs {
  ipaddrJs ??= createRequire(import.meta.url)("ipaddr.js") as IpAddrJs;
  return ipaddrJs;
}

/**
 * An IP address as the policy sees it: its family and its value as an unsigned integer.
 *
 * @example
 * ```ts
 * const ip: ParsedIp = { version: 4, value: 0x7f000001n }; // 127.0.0.1
 * ```
 */
export interface ParsedIp {
  version: 4 | 6;
  /** 32-bit (IPv4) or 128-bit (IPv6) unsigned value. */
  value: bigint;
}

/**
 * An inclusive range of addresses of one family, as a CIDR block compiles to.
 *
 * @example
 * ```ts
 * const loopback: IpRange = parseCidr("127.0.0.0/8"); // first 0x7f000000n, last 0x7fffffffn
 * ```
 */
export interface IpRange {
  version: 4 | 6;
  first: bigint;
  last: bigint;
  /** The block as written in canonical form, e.g. `10.0.0.0/8`. */
  cidr: string;
}

function fromBytes(bytes: readonly number[]): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/**
 * Parses an address exactly as DNS answers and the WHATWG URL parser print them: IPv4 as four
 * decimal parts, IPv6 as RFC 4291 §2.2 text (brackets allowed). Anything else — octal or hex IPv4
 * parts, short forms like `127.1`, zone identifiers — returns `null`, so a caller that refuses what it
 * cannot parse fails closed: the WHATWG parser has already turned `0x7f.1` into `127.0.0.1`, and a
 * resolver answer in any other shape is not an address we can vouch for.
 *
 * @example
 * ```ts
 * parseIp("127.0.0.1"); // { version: 4, value: 2130706433n }
 * parseIp("0177.0.0.1"); // null
 * ```
 */
export function parseIp(text: string): ParsedIp | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const v4 = parseDottedQuad(bare);
  if (v4 !== null) return { version: 4, value: BigInt(v4) };
  if (bare.includes(":") && ipaddr().IPv6.isValid(bare)) {
    const parsed = ipaddr().IPv6.parse(bare);
    // RFC 6874 zone identifiers only qualify link-local addresses; refuse rather than guess a scope.
    if (parsed.zoneId !== undefined) return null;
    return { version: 6, value: fromBytes(parsed.toByteArray()) };
  }
  return null;
}

// Four decimal parts 0–255 without leading zeros (a leading zero reads as octal elsewhere, so it is
// refused). Profiled under the resolver bench, ipaddr.js's general IPv4 parser took 12% of the
// client's CPU for this one shape; this scanner is the same check without regexes.
function parseDottedQuad(s: string): number | null {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i === s.length ? 0x2e : s.charCodeAt(i);
    if (c === 0x2e) {
      if (digits === 0 || part > 255 || parts === 4) return null;
      value = value * 256 + part;
      parts++;
      part = 0;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      if (digits > 0 && part === 0) return null;
      part = part * 10 + (c - 0x30);
      digits++;
      if (digits > 3) return null;
    } else return null;
  }
  return parts === 4 ? value : null;
}

/**
 * Canonical text of an address value (RFC 5952 for IPv6).
 *
 * @example
 * ```ts
 * formatIp(6, 1n); // "::1"
 * ```
 */
export function formatIp(version: 4 | 6, value: bigint): string {
  const bytes: number[] = [];
  const count = version === 4 ? 4 : 16;
  for (let i = count - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(i * 8)) & 0xffn));
  // IPv4 text is the four bytes in decimal, as ipaddr.js's IPv4 toString() prints them: no reason
  // to load it (see ipaddr() above) for `127.0.0.1/32`.
  if (version === 4) return bytes.join(".");
  // Sixteen bytes make an IPv6 address.
  return (ipaddr().fromByteArray(bytes) as InstanceType<IpAddrJs["IPv6"]>).toRFC5952String();
}

/**
 * Parses a CIDR block (`10.0.0.0/8`, `2001:db8::/32`) into an inclusive range. A bare address is a
 * single-address block (`/32` or `/128`). Host bits set below the prefix (`10.0.0.1/8`) are refused:
 * in a security allow-list that is a typo, not an intent.
 *
 * @throws TypeError naming the block when it is not a valid CIDR.
 * @example
 * ```ts
 * parseCidr("127.0.0.1/32"); // { version: 4, first: 2130706433n, last: 2130706433n, cidr: "127.0.0.1/32" }
 * ```
 */
export function parseCidr(text: string): IpRange {
  const slash = text.indexOf("/");
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const address = parseIp(addressText);
  if (address === null) throw new TypeError(`invalid CIDR block "${text}": not an IP address`);
  const bits = address.version === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(bits) : text.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText) || Number(prefixText) > bits) {
    throw new TypeError(`invalid CIDR block "${text}": prefix length must be 0-${bits}`);
  }
  const prefix = Number(prefixText);
  const hostBits = BigInt(bits - prefix);
  const hostMask = (1n << hostBits) - 1n;
  if ((address.value & hostMask) !== 0n) {
    throw new TypeError(`invalid CIDR block "${text}": address has bits set below the /${prefix} prefix`);
  }
  return {
    version: address.version,
    first: address.value,
    last: address.value | hostMask,
    cidr: `${formatIp(address.version, address.value)}/${prefix}`,
  };
}
