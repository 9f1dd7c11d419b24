import { isIP } from "node:net";
import type { ParseArgsConfig } from "node:util";
import { parseCidr } from "../../resolve/guard/ip-address.js";
import type { ClientOptions } from "../../resolve/types.js";
import { UsageError } from "../io/io.js";
import { createFixedResolver, type Resolver } from "./fixed-resolver.js";

/**
 * The `node:util` parseArgs table of the network policy flags, shared by every command that
 * resolves (`canonurl` network mode, `canonurl serve`): `--allow-network CIDR`,
 * `--allowed-port N` and `--resolve HOST:ADDRESS`, each repeatable.
 *
 * @example
 * ```ts
 * parseArgs({ args, options: { ...NETWORK_POLICY_FLAGS, json: { type: "boolean" } } });
 * ```
 */
export const NETWORK_POLICY_FLAGS = {
  "allow-network": { type: "string", multiple: true },
  "allowed-port": { type: "string", multiple: true },
  resolve: { type: "string", multiple: true },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

/** Parsed values of {@link NETWORK_POLICY_FLAGS}. */
export interface NetworkPolicyFlagValues {
  "allow-network"?: string[] | undefined;
  "allowed-port"?: string[] | undefined;
  resolve?: string[] | undefined;
}

// RFC 1123 §2.1 labels, with the trailing root dot tolerated: enough to refuse "a b:1.2.3.4" or
// an empty name, which could only be a typo.
const HOST_NAME =
  /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/**
 * Splits one `--resolve` value: `HOST:ADDRESS`, the address an IPv4 or IPv6 literal (brackets
 * optional: `origin.test:[::1]` and `origin.test:::1` are the same). A malformed value is a
 * `UsageError` naming the flag.
 *
 * @example
 * ```ts
 * parseResolveFlag("origin.test:127.0.0.1"); // { host: "origin.test", address: "127.0.0.1" }
 * ```
 */
export function parseResolveFlag(value: string): { host: string; address: string } {
  const colon = value.indexOf(":");
  const host = colon < 0 ? "" : value.slice(0, colon);
  let address = colon < 0 ? "" : value.slice(colon + 1);
  if (address.startsWith("[") && address.endsWith("]")) address = address.slice(1, -1);
  if (!HOST_NAME.test(host) || isIP(address) === 0) {
    throw new UsageError(`--resolve must be HOST:ADDRESS with an IP address, got '${value}'`);
  }
  return { host: host.toLowerCase(), address };
}

/**
 * Turns the network policy flags into client options: `allowedNetworks`, `allowedPorts` and a
 * `resolver` answering the `--resolve` names (other names go to `fallback`, the system resolver
 * unless a caller injects one). Flags not given leave the library's defaults in place. Every bad
 * value is a `UsageError` (exit status 2) naming the flag.
 *
 * @example
 * ```ts
 * networkPolicyFromFlags({ "allow-network": ["127.0.0.1/32"], "allowed-port": ["8080"], resolve: ["origin.test:127.0.0.1"] });
 * // { allowedNetworks: ["127.0.0.1/32"], allowedPorts: [8080], resolver: [Function] }
 * ```
 */
export function networkPolicyFromFlags(
  values: NetworkPolicyFlagValues,
  fallback?: Resolver,
): Pick<ClientOptions, "allowedNetworks" | "allowedPorts" | "resolver"> {
  const options: Pick<ClientOptions, "allowedNetworks" | "allowedPorts" | "resolver"> = {};
  const networks = values["allow-network"];
  if (networks !== undefined && networks.length > 0) {
    for (const cidr of networks) {
      try {
        parseCidr(cidr);
      } catch (error) {
        throw new UsageError(`--allow-network: ${(error as Error).message}`);
      }
    }
    options.allowedNetworks = [...networks];
  }
  const ports = values["allowed-port"];
  if (ports !== undefined && ports.length > 0) {
    options.allowedPorts = ports.map((port) => {
      const n = /^\d{1,5}$/.test(port) ? Number(port) : Number.NaN;
      if (!(n >= 1 && n <= 65535)) {
        throw new UsageError(`--allowed-port must be an integer from 1 to 65535, got '${port}'`);
      }
      return n;
    });
  }
  const fixed = values.resolve;
  if (fixed !== undefined && fixed.length > 0) {
    const answers = new Map<string, string[]>();
    for (const value of fixed) {
      const { host, address } = parseResolveFlag(value);
      const list = answers.get(host) ?? [];
      list.push(address);
      answers.set(host, list);
    }
    options.resolver = createFixedResolver(answers, fallback);
  }
  return options;
}
