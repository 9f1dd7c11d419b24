import { createClient } from "./lazy-client.js";
import type { ClientOptions, Resolution } from "./types.js";

/**
 * Resolves one URL and returns its canonical form: builds a client with `options`, runs, closes it.
 * For many URLs, share one `createClient()` instead, so connections are reused.
 *
 * @example
 * ```ts
 * await canonicalize("http://example.com/?utm_source=x"); // "http://example.com/"
 * ```
 */
export async function canonicalize(url: string, options?: ClientOptions): Promise<string> {
  return (await resolve(url, options)).url;
}

/**
 * Resolves one URL and returns the whole {@link Resolution} (chain, source, verified, timings):
 * builds a client with `options`, runs, closes it.
 *
 * @example
 * ```ts
 * const { url, chain, source } = await resolve("http://example.com/old");
 * ```
 */
export async function resolve(url: string, options?: ClientOptions): Promise<Resolution> {
  const client = createClient(options);
  try {
    return await client.resolve(url);
  } finally {
    await client.close();
  }
}
