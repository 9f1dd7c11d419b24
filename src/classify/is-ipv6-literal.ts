import { hexValue } from "../url/hex-value.js";

/**
 * Whether the (unescaped) text inside `[` `]` is what net/url accepts there since Go 1.24.8: a
 * string netip.ParseAddr reads as IPv6 (an IPv4 address, or anything else, is refused). The
 * grammar is RFC 4291 §2.2 text (at most 4 hex digits a group, one `::`, an optional dotted IPv4
 * tail in the last 32 bits with no leading zeros) plus an optional non-empty `%zone`.
 *
 * @example
 * ```ts
 * isIpv6Literal("::ffff:127.0.0.1"); // true
 * isIpv6Literal("127.0.0.1"); // false
 * ```
 */
export function isIpv6Literal(text: string): boolean {
  // netip.ParseAddr picks the family by the first '.', ':' or '%'; only ':' leads to IPv6.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) break;
    if (c === 0x2e || c === 0x25) return false;
    if (i === text.length - 1) return false;
  }
  if (text.length === 0) return false;
  let end = text.indexOf("%");
  if (end !== -1) {
    if (end === text.length - 1) return false; // an explicit zone must not be empty
  } else {
    end = text.length;
  }
  return isIpv6Text(text, end);
}

// RFC 4291 §2.2, as netip's parseIPv6 reads it over text[0, end).
function isIpv6Text(text: string, end: number): boolean {
  let pos = 0;
  let fields = 0; // bytes filled, 0..16
  let ellipsis = -1;
  if (end >= 2 && text.charCodeAt(0) === 0x3a && text.charCodeAt(1) === 0x3a) {
    ellipsis = 0;
    pos = 2;
    if (pos === end) return true;
  }
  while (fields < 16) {
    const start = pos;
    while (pos < end && hexValue(text.charCodeAt(pos)) >= 0) {
      pos++;
      if (pos - start > 4) return false;
    }
    if (pos === start) return false;
    if (pos < end && text.charCodeAt(pos) === 0x2e) {
      if (ellipsis < 0 && fields !== 12) return false;
      if (fields + 4 > 16) return false;
      if (!isDottedQuad(text, start, end)) return false;
      fields += 4;
      pos = end;
      break;
    }
    fields += 2;
    if (pos === end) break;
    if (text.charCodeAt(pos) !== 0x3a || pos + 1 === end) return false;
    pos++;
    if (text.charCodeAt(pos) === 0x3a) {
      if (ellipsis >= 0) return false;
      ellipsis = fields;
      pos++;
      if (pos === end) break;
    }
  }
  if (pos !== end) return false;
  if (fields < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

// netip's parseIPv4Fields: four decimal octets, no leading zeros, none above 255.
function isDottedQuad(text: string, start: number, end: number): boolean {
  let dots = 0;
  let value = 0;
  let digits = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (digits === 1 && value === 0) return false;
      value = value * 10 + (c - 0x30);
      digits++;
      if (value > 255) return false;
    } else if (c === 0x2e) {
      if (i === start || i === end - 1 || text.charCodeAt(i - 1) === 0x2e) return false;
      if (dots === 3) return false;
      dots++;
      value = 0;
      digits = 0;
    } else {
      return false;
    }
  }
  return dots === 3;
}
