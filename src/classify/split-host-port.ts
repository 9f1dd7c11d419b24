import { isValidOptionalPort } from "./valid-optional-port.js";

/**
 * url.URL.Hostname() and Port() of an unescaped `host[:port]`: the port is what follows the last
 * `:` when that is all digits; brackets around the rest are dropped (`[::1]` gives `::1`).
 *
 * @example
 * ```ts
 * splitHostPort("[::1]:8080"); // ["::1", "8080"]
 * splitHostPort("a.test:"); // ["a.test", ""]
 * ```
 */
export function splitHostPort(hostPort: string): [hostname: string, port: string] {
  let host = hostPort;
  let port = "";
  const colon = hostPort.lastIndexOf(":");
  if (colon !== -1 && isValidOptionalPort(hostPort, colon, hostPort.length)) {
    host = hostPort.slice(0, colon);
    port = hostPort.slice(colon + 1);
  }
  if (host.length >= 2 && host.charCodeAt(0) === 0x5b && host.charCodeAt(host.length - 1) === 0x5d) {
    host = host.slice(1, -1);
  }
  return [host, port];
}
