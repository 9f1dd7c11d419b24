/**
 * Removes trailing dots from a DNS host name (`example.com.` → `example.com`). The fully
 * qualified and the relative spelling name the same host on the web. All of them go, so that the
 * step is idempotent; a host of dots only is left alone.
 *
 * @example
 * ```ts
 * stripTrailingDot("example.com."); // "example.com"
 * ```
 */
export function stripTrailingDot(hostname: string): string {
  let end = hostname.length;
  while (end > 0 && hostname.charCodeAt(end - 1) === 0x2e) end--;
  return end === hostname.length || end === 0 ? hostname : hostname.slice(0, end);
}
