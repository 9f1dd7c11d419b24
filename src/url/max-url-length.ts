import { UrlError } from "../errors/url-error.js";

/**
 * The longest URL normalize accepts or produces, in UTF-16 code units: 65,536 (64 Ki). It bounds
 * the input, the parsed form, every domain rule's rewrite and unwrap step, and the canonical
 * output, so no input and no rule can make the work or the output grow past it. A real link is
 * far shorter (browsers keep 2 MB, but sitemaps cap at 2,048 and most servers refuse request
 * lines over 8 KB); before this bound an unwrap rule whose target repeats its capture turned a
 * 1 KB input into 32 MB in 2.3 s.
 *
 * @example
 * ```ts
 * normalize(`https://example.com/${"a".repeat(MAX_URL_LENGTH)}`); // throws UrlError invalid-url
 * ```
 */
export const MAX_URL_LENGTH = 65_536;

/**
 * Throws `UrlError` `invalid-url` when `url` is longer than {@link MAX_URL_LENGTH}; `what` says
 * which stage made it (the input, a rule's output) and `raw` is the input quoted in the error.
 *
 * @example
 * ```ts
 * checkUrlLength("http://a.test/", "input", "http://a.test/"); // returns; a longer one throws
 * ```
 */
export function checkUrlLength(url: string, what: string, raw: string): void {
  if (url.length <= MAX_URL_LENGTH) return;
  throw new UrlError(
    "invalid-url",
    `invalid URL: ${what} is ${url.length} characters, over the limit of ${MAX_URL_LENGTH}: ${JSON.stringify(raw.slice(0, 80))}…`,
    { url: raw.slice(0, 1024) },
  );
}
