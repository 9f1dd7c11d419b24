import { type IpRange, type ParsedIp, parseCidr, parseIp } from "./ip-address.js";
import { builtInIpTables, type NamedRange } from "./ip-tables.js";

export { parseCidr };

/**
 * The verdict of an address policy on one address; `reason` is fit for an error message.
 *
 * @example
 * ```ts
 * const verdict: AddressVerdict = { allowed: false, reason: "in 10.0.0.0/8 Private-Use (RFC 1918)" };
 * ```
 */
export interface AddressVerdict {
  allowed: boolean;
  reason: string;
}

/**
 * Options of {@link createAddressPolicy}.
 *
 * @example
 * ```ts
 * const options: AddressPolicyOptions = { allowPrivateNetworks: false, allowedNetworks: ["127.0.0.1/32"] };
 * ```
 */
export interface AddressPolicyOptions {
  /** Let every parseable address through (the escape hatch for trusted URLs). */
  allowPrivateNetworks: boolean;
  /** CIDR blocks (IPv4 or IPv6) let through despite the tables. */
  allowedNetworks: readonly string[];
}

// Binary search over sorted, disjoint ranges: the tables are small, but this runs on every DNS answer.
function findRange(ranges: readonly IpRange[], value: bigint): IpRange | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const range = ranges[mid] as IpRange;
    if (value < range.first) high = mid - 1;
    else if (value > range.last) low = mid + 1;
    else return range;
  }
  return undefined;
}

// The most specific registry entry holding the address, to name it in the reason.
function mostSpecific(entries: readonly NamedRange[], value: bigint): NamedRange | undefined {
  let best: NamedRange | undefined;
  for (const entry of entries) {
    if (value < entry.first || value > entry.last) continue;
    if (best === undefined || entry.last - entry.first < best.last - best.first) best = entry;
  }
  return best;
}

function tableVerdict(ip: ParsedIp): AddressVerdict {
  const tables = builtInIpTables();
  if (ip.version === 4) {
    if (findRange(tables.ipv4BlockedMerged, ip.value) === undefined) {
      return { allowed: true, reason: "not in any IANA special-purpose block" };
    }
    const entry = mostSpecific(tables.ipv4Blocked, ip.value);
    return { allowed: false, reason: `in ${entry?.cidr} ${entry?.label}` };
  }
  if (findRange(tables.ipv6Allowed, ip.value) !== undefined) {
    return { allowed: true, reason: "in an IANA global unicast allocation" };
  }
  const special = mostSpecific(tables.ipv6Special, ip.value);
  if (special !== undefined) return { allowed: false, reason: `in ${special.cidr} ${special.label}` };
  return { allowed: false, reason: "outside every IANA global unicast allocation to a regional registry" };
}

/**
 * True when the address is publicly routable under the built-in IANA tables: an IPv4 address outside
 * every non-global special-purpose, multicast and reserved block, or an IPv6 address inside a
 * global-unicast allocation to a regional registry and outside every special-purpose block. Input that
 * is not an address in canonical DNS/URL form is never routable.
 *
 * @example
 * ```ts
 * isGloballyRoutable("93.184.216.34"); // true
 * isGloballyRoutable("::ffff:7f00:1"); // false (IPv4-mapped: outside the IPv6 allow-list)
 * ```
 */
export function isGloballyRoutable(address: string): boolean {
  const ip = parseIp(address);
  return ip !== null && tableVerdict(ip).allowed;
}

/**
 * Builds the address check every DNS answer and IP literal goes through. `allowedNetworks` match only
 * their own family (`127.0.0.1/32` does not admit `::ffff:127.0.0.1`); `allowPrivateNetworks` admits
 * any parseable address. Throws `TypeError` naming a malformed `allowedNetworks` entry.
 *
 * @example
 * ```ts
 * const check = createAddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ["127.0.0.1/32"] });
 * check("127.0.0.1"); // { allowed: true, reason: "in allowedNetworks 127.0.0.1/32" }
 * check("10.0.0.1").allowed; // false
 * ```
 */
export function createAddressPolicy(options: AddressPolicyOptions): (address: string) => AddressVerdict {
  const networks = options.allowedNetworks.map((cidr) => {
    try {
      return parseCidr(cidr);
    } catch (error) {
      throw new TypeError(`allowedNetworks: ${(error as Error).message}`, { cause: error });
    }
  });
  const allowPrivate = options.allowPrivateNetworks;
  return (address: string): AddressVerdict => {
    const ip = parseIp(address);
    if (ip === null) return { allowed: false, reason: "not an IP address in canonical form" };
    for (const network of networks) {
      if (network.version === ip.version && ip.value >= network.first && ip.value <= network.last) {
        return { allowed: true, reason: `in allowedNetworks ${network.cidr}` };
      }
    }
    if (allowPrivate) return { allowed: true, reason: "allowPrivateNetworks" };
    return tableVerdict(ip);
  };
}
