import { isIP } from "node:net";
import { HttpError } from "./http-error.js";

/**
 * The host names a loopback-bound service answers to. A request naming any other host reached
 * this socket through DNS rebinding (a page's own name re-pointed at 127.0.0.1), which would make
 * the page same-origin with the service and let it read the answers.
 */
export const LOOPBACK_HOST_NAMES: readonly string[] = Object.freeze(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether `host` (a bind address) is a loopback one: a service bound there is reachable from
 * this machine only, so only the loopback names can be legitimate in its `Host` header.
 *
 * @example
 * ```ts
 * isLoopbackBind("127.0.0.1"); // true
 * isLoopbackBind("0.0.0.0"); // false
 * ```
 */
export function isLoopbackBind(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1" || bare === "0:0:0:0:0:0:0:1";
}

/**
 * Checks the two headers by which a web page in someone's browser could use the service:
 *
 * - `Host` must be one of `allowedHosts` (any host when `null`): refuses DNS rebinding.
 * - A POST carrying `Origin` must come from the service's own origin: refuses a cross-site page
 *   that posts to `/v1/resolve` blind (a form or a no-cors fetch needs no CORS consent to send).
 *   Programs (curl, an HTTP client) send no `Origin` and are not affected; neither is the
 *   playground, which is same-origin.
 *
 * Throws `HttpError` 403 `forbidden` naming what was refused.
 *
 * @example
 * ```ts
 * checkBrowserRequest("POST", new URL("http://127.0.0.1:8787/v1/resolve"), "https://evil.example", ["127.0.0.1"]);
 * // throws HttpError 403
 * ```
 */
export function checkBrowserRequest(
  method: string,
  url: URL,
  origin: string | undefined,
  allowedHosts: readonly string[] | null,
): void {
  if (allowedHosts !== null && !allowedHosts.includes(url.hostname)) {
    throw new HttpError(403, "forbidden", `this service does not answer to the host name "${url.hostname}"`);
  }
  if (method !== "GET" && method !== "HEAD" && origin !== undefined && origin !== url.origin) {
    throw new HttpError(403, "forbidden", "cross-origin requests are refused");
  }
}
