import * as v from "valibot";
import { ipPolicy } from "../../generated/data.js";
import { type IpRange, parseCidr } from "./ip-address.js";

const cidrEntry = v.object({
  cidr: v.pipe(v.string(), v.minLength(1)),
  name: v.pipe(v.string(), v.minLength(1)),
  ref: v.pipe(v.string(), v.minLength(1)),
  global: v.optional(v.boolean()),
  why: v.optional(v.string()),
});
const allocationEntry = v.object({
  cidr: v.pipe(v.string(), v.minLength(1)),
  rir: v.picklist(["AFRINIC", "APNIC", "ARIN", "LACNIC", "RIPE NCC"]),
});
const provenance = {
  source: v.pipe(v.string(), v.minLength(1)),
  updated: v.pipe(v.string(), v.minLength(1)),
  taken: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
};
const ipPolicySchema = v.object({
  ipv4: v.object({ ...provenance, blocked: v.pipe(v.array(cidrEntry), v.minLength(1)) }),
  ipv6: v.object({
    allocations: v.object({ ...provenance, allowed: v.pipe(v.array(allocationEntry), v.minLength(1)) }),
    special: v.object({ ...provenance, blocked: v.pipe(v.array(cidrEntry), v.minLength(1)) }),
  }),
});

/**
 * One named block of a table, compiled to an inclusive range.
 *
 * @example
 * ```ts
 * builtInIpTables().ipv4Blocked[0]?.label; // "This host on this network (RFC 791, RFC 1122 §3.2.1.3)"
 * ```
 */
export interface NamedRange extends IpRange {
  /** Registry name and reference, e.g. `Loopback (RFC 1122 §3.2.1.3)`. */
  label: string;
}

/**
 * The address tables of `data/ip-policy.yaml`, validated and compiled. `ipv4Blocked` and
 * `ipv6Special` keep every registry entry (overlapping, in file order) for reasons and tests;
 * `ipv4BlockedMerged` and `ipv6Allowed` are the sorted, disjoint ranges the policy searches.
 *
 * @example
 * ```ts
 * const tables = compileIpTables(ipPolicy);
 * tables.ipv6Allowed.length; // number of eligible IPv6 ranges
 * ```
 */
export interface IpTables {
  ipv4Blocked: readonly NamedRange[];
  ipv6Allocations: readonly NamedRange[];
  ipv6Special: readonly NamedRange[];
  /** Sorted, disjoint IPv4 ranges that are refused. */
  ipv4BlockedMerged: readonly IpRange[];
  /** Sorted, disjoint IPv6 ranges that are eligible: allocations minus special-purpose blocks. */
  ipv6Allowed: readonly IpRange[];
  provenance: readonly { source: string; updated: string; taken: string }[];
}

function named(entry: { cidr: string }, label: string, version: 4 | 6, where: string): NamedRange {
  const range = parseCidr(entry.cidr);
  if (range.version !== version) throw new TypeError(`${where}: ${entry.cidr} is not an IPv${version} block`);
  return { ...range, label };
}

function sortRanges<T extends IpRange>(ranges: readonly T[]): T[] {
  return [...ranges].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
}

function merge(ranges: readonly IpRange[]): IpRange[] {
  const out: IpRange[] = [];
  for (const range of sortRanges(ranges)) {
    const previous = out[out.length - 1];
    if (previous !== undefined && range.first <= previous.last + 1n) {
      if (range.last > previous.last) out[out.length - 1] = { ...previous, last: range.last, cidr: "merged" };
    } else {
      out.push({ ...range });
    }
  }
  return out;
}

// Allocations minus special-purpose blocks, both merged first, in one sweep over sorted input.
function subtract(allowed: readonly IpRange[], removed: readonly IpRange[]): IpRange[] {
  const out: IpRange[] = [];
  const holes = merge(removed);
  for (const range of merge(allowed)) {
    let first = range.first;
    for (const hole of holes) {
      if (hole.last < first || hole.first > range.last) continue;
      if (hole.first > first)
        out.push({ version: range.version, first, last: hole.first - 1n, cidr: "derived" });
      first = hole.last + 1n;
      if (first > range.last) break;
    }
    if (first <= range.last) out.push({ version: range.version, first, last: range.last, cidr: "derived" });
  }
  return out;
}

/**
 * Validates the parsed `data/ip-policy.yaml` and compiles it into sorted ranges. A malformed file
 * throws here, rather than letting a missing block quietly widen the policy.
 *
 * @throws TypeError listing what is wrong with the data.
 * @example
 * ```ts
 * import { ipPolicy } from "../../generated/data.js";
 * const tables = compileIpTables(ipPolicy);
 * ```
 */
export function compileIpTables(data: unknown): IpTables {
  const parsed = v.safeParse(ipPolicySchema, data);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? "(root)"}: ${issue.message}`);
    throw new TypeError(`data/ip-policy.yaml is invalid: ${problems.join("; ")}`);
  }
  const { ipv4, ipv6 } = parsed.output;
  const ipv4Blocked = ipv4.blocked.map((e) => named(e, `${e.name} (${e.ref})`, 4, "ipv4.blocked"));
  const ipv6Allocations = ipv6.allocations.allowed.map((e) =>
    named(e, `allocated to ${e.rir}`, 6, "ipv6.allocations.allowed"),
  );
  const ipv6Special = ipv6.special.blocked.map((e) =>
    named(e, `${e.name} (${e.ref})`, 6, "ipv6.special.blocked"),
  );
  return {
    ipv4Blocked,
    ipv6Allocations,
    ipv6Special,
    ipv4BlockedMerged: merge(ipv4Blocked),
    ipv6Allowed: subtract(ipv6Allocations, ipv6Special),
    provenance: [ipv4, ipv6.allocations, ipv6.special].map(({ source, updated, taken }) => ({
      source,
      updated,
      taken,
    })),
  };
}

let builtIn: IpTables | undefined;

/**
 * The built-in tables, compiled once on first call: the IPv6 blocks are parsed by ipaddr.js, which
 * src/resolve/guard/ip-address.ts loads on first use only (a CommonJS package, ~70 ms of CPU on
 * Node 20 when it loads at `import("canonurl")`). A malformed data file throws on every call, so
 * an address check fails closed rather than letting a missing block widen the policy.
 *
 * @example
 * ```ts
 * builtInIpTables().ipv4Blocked.some((r) => r.cidr === "127.0.0.0/8"); // true
 * ```
 */
export function builtInIpTables(): IpTables {
  builtIn ??= compileIpTables(ipPolicy);
  return builtIn;
}
