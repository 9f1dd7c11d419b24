import { isValidOptionalPort } from "./valid-optional-port.js";

/**
 * The index of the `:` that starts the port of an unescaped `host[:port]` (the last `:`, when all
 * that follows is digits), or -1. Hostname() and Port() both start from it; computing it once
 * and passing it to {@link hostnameOf} and {@link portOf} saves a scan.
 *
 * @example
 * ```ts
 * portColon("a.test:80"); // 6
 * ```
 */
export function portColon(hostPort: string): number {
  const colon = hostPort.lastIndexOf(":");
  return colon !== -1 && isValidOptionalPort(hostPort, colon, hostPort.length) ? colon : -1;
}

/**
 * url.URL.Hostname() of an unescaped `host[:port]`: the port (what follows the last `:` when that
 * is all digits) is dropped, then the brackets around the rest (`[::1]` gives `::1`).
 *
 * @example
 * ```ts
 * hostnameOf("[::1]:8080"); // "::1"
 * hostnameOf("a.test:"); // "a.test"
 * ```
 */
export function hostnameOf(hostPort: string, colon: number = portColon(hostPort)): string {
  const host = colon === -1 ? hostPort : hostPort.slice(0, colon);
  if (host.length >= 2 && host.charCodeAt(0) === 0x5b && host.charCodeAt(host.length - 1) === 0x5d) {
    return host.slice(1, -1);
  }
  return host;
}

/**
 * url.URL.Port() of an unescaped `host[:port]`: the digits after the last `:`, or `""`.
 *
 * @example
 * ```ts
 * portOf("[::1]:8080"); // "8080"
 * portOf("a:b"); // ""
 * ```
 */
export function portOf(hostPort: string, colon: number = portColon(hostPort)): string {
  return colon === -1 ? "" : hostPort.slice(colon + 1);
}
