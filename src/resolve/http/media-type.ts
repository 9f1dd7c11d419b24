// RFC 9110 §8.3.1: media-type = type "/" subtype parameters; type and subtype are case-insensitive
// tokens. Only the essence (type/subtype) matters here; parameters such as charset are ignored.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const HTML_TYPES: ReadonlySet<string> = new Set(["text/html", "application/xhtml+xml"]);

/**
 * The lowercased `type/subtype` of a `Content-Type` value, or `null` when it is missing or not a
 * valid media type. When a field is repeated the last value wins, as browsers do (Fetch §3.1.5).
 *
 * @example
 * ```ts
 * mediaTypeEssence("Text/HTML; charset=UTF-8"); // "text/html"
 * ```
 */
export function mediaTypeEssence(value: string | readonly string[] | undefined): string | null {
  const raw = typeof value === "string" ? value : value?.[value.length - 1];
  if (raw === undefined) return null;
  const semicolon = raw.indexOf(";");
  const essence = (semicolon === -1 ? raw : raw.slice(0, semicolon)).trim();
  const slash = essence.indexOf("/");
  if (slash <= 0) return null;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  return `${type}/${subtype}`.toLowerCase();
}

/**
 * True when a `Content-Type` names an HTML document we parse for `<link rel=canonical>`:
 * `text/html` or `application/xhtml+xml`, in any case, with any parameters.
 *
 * @example
 * ```ts
 * isHtmlMediaType("application/XHTML+xml;charset=utf-8"); // true
 * ```
 */
export function isHtmlMediaType(value: string | readonly string[] | undefined): boolean {
  const essence = mediaTypeEssence(value);
  return essence !== null && HTML_TYPES.has(essence);
}

/**
 * True when a `Content-Type` is a valid media type that is not HTML. A missing or malformed type is
 * not "clearly not HTML": servers omit it on HEAD, so such a response still gets a GET.
 *
 * @example
 * ```ts
 * isClearlyNotHtml("image/png"); // true
 * isClearlyNotHtml(undefined);   // false
 * ```
 */
export function isClearlyNotHtml(value: string | readonly string[] | undefined): boolean {
  const essence = mediaTypeEssence(value);
  return essence !== null && !HTML_TYPES.has(essence);
}
