import { RedirectError } from "../../errors/redirect-error.js";
import { UrlError } from "../../errors/url-error.js";

// Node's HTTP parser hands header bytes over as latin1; a server that sends a raw UTF-8 Location
// (common for non-ASCII paths) would otherwise be read as mojibake. Re-decode when the bytes are
// valid UTF-8 and keep the latin1 reading when they are not.
function decodeHeaderBytes(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is for any non-ASCII byte
  if (!/[^\x00-\x7f]/.test(value)) return value;
  const bytes = Buffer.from(value, "latin1");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return value;
  }
}

/**
 * The absolute URL a redirect leads to: the `Location` value resolved against the request URL
 * (RFC 9110 §10.2.2, reference resolution per RFC 3986 §5.2, so absolute, protocol-relative,
 * root-relative, path-relative and query-only forms all work). Throws `RedirectError`
 * (`invalid-location`) when the field is missing, repeated with different values, empty or
 * unresolvable, and `UrlError` (`unsupported-scheme`) when it leads outside http(s).
 *
 * @example
 * ```ts
 * resolveLocation("?page=2", new URL("http://a.test/list?page=1")).href; // "http://a.test/list?page=2"
 * ```
 */
export function resolveLocation(value: string | readonly string[] | undefined, requestUrl: URL): URL {
  const where = requestUrl.href;
  const values = value === undefined ? [] : typeof value === "string" ? [value] : [...new Set(value)];
  if (values.length !== 1) {
    const why = values.length === 0 ? "no Location" : "conflicting Location fields";
    throw new RedirectError("invalid-location", `redirect with ${why}: ${where}`, { url: where });
  }
  const raw = decodeHeaderBytes((values[0] ?? "").trim());
  if (raw === "") {
    throw new RedirectError("invalid-location", `redirect with an empty Location: ${where}`, { url: where });
  }
  let target: URL;
  try {
    target = new URL(raw, requestUrl);
  } catch (cause) {
    throw new RedirectError("invalid-location", `unusable Location ${JSON.stringify(raw)}: ${where}`, {
      url: where,
      cause,
    });
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new UrlError(
      "unsupported-scheme",
      `redirect to unsupported scheme ${target.protocol} from ${where}`,
      {
        url: target.href,
      },
    );
  }
  return target;
}
