import { isIpHost } from "./ipv4-host.js";

/**
 * The Internet Archive's SURT host: labels in reverse order, joined by commas
 * (`www.example.com` → `com,example,www`). IPv4 addresses are reversed too, as the Archive's key
 * maker does by default (`10.1.2.3` → `3,2,1,10`); an IPv6 literal stays as it is.
 *
 * @example
 * ```ts
 * hostToSurt("a.example.org"); // "org,example,a"
 * ```
 */
export function hostToSurt(host: string): string {
  if (host.charCodeAt(0) === 0x5b) return host;
  // One backward scan for the dots (a lastIndexOf call per label cost a third more).
  let out = "";
  let end = host.length;
  for (let i = host.length - 1; i >= 0; i--) {
    if (host.charCodeAt(i) === 0x2e) {
      out += `${host.slice(i + 1, end)},`;
      end = i;
    }
  }
  return out + host.slice(0, end);
}

/**
 * urlcanon's reverse_host: labels reversed and comma-joined with a trailing comma; a comma inside
 * a label becomes a dot, so the key stays reversible.
 *
 * @example
 * ```ts
 * reverseHost("x.y.z."); // ",z,y,x,"
 * ```
 */
export function reverseHost(host: string): string {
  const labels = host.split(".");
  let out = "";
  for (let i = labels.length - 1; i >= 0; i--) out += `${(labels[i] as string).replaceAll(",", ".")},`;
  return out;
}

/**
 * urlcanon's ssurt_host: an IP address (IPv6 literal or any IPv4 spelling) as it is, any other
 * host reversed by {@link reverseHost}.
 *
 * @example
 * ```ts
 * ssurtHost("1.2.3.4"); // "1.2.3.4"
 * ssurtHost("x.y.z");   // "z,y,x,"
 * ```
 */
export function ssurtHost(host: string): string {
  return isIpHost(host) ? host : reverseHost(host);
}
