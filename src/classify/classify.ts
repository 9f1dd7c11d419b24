import { asciiLower } from "./ascii-lower.js";
import { canonicalizeSlashes } from "./canonicalize-slashes.js";
import { parseLikeGo } from "./parse-like-go.js";
import { preprocess } from "./preprocess.js";
import { isAuthorityScheme } from "./special-scheme.js";
import { splitHostPort } from "./split-host-port.js";
import type { UrlForm } from "./url-form.js";

/**
 * Classifies a raw, untrusted URL string by structural form and extracts the facts a browser would
 * act on, following the urlform seed: WHATWG input preprocessing first (edges trimmed, embedded
 * tab/CR/LF removed), backslashes read as slashes where a browser reads them so, then Go
 * `net/url`'s acceptance with the browser's readings layered on (slash-count recovery after
 * http/https/ws/wss/ftp, the address bar's schemeless and protocol-relative forms). Pure and total:
 * never throws, every input lands in exactly one class.
 *
 * @example
 * ```ts
 * classify("https:/evil.test/x"); // { class: "hidden-host", host: "evil.test", scheme: "https", ... }
 * classify("https://anime\tbytes.tv").host; // "animebytes.tv" (hasTabOrNewline: true)
 * ```
 */
export function classify(raw: string): UrlForm {
  const { trimmed, hasTabOrNewline, hasBackslash } = preprocess(raw);
  const form: UrlForm = {
    class: "empty",
    trimmed,
    host: "",
    scheme: "",
    port: "",
    hasBackslash,
    hasTabOrNewline,
    hasUserInfo: false,
    hostUnrecoverable: false,
  };
  if (trimmed === "") return form;
  const canonical = hasBackslash ? canonicalizeSlashes(trimmed) : trimmed;
  const parsed = parseLikeGo(canonical);
  if (parsed === null) {
    form.class = "malformed";
    return form;
  }
  const [hostname, port] = splitHostPort(parsed.host);
  form.scheme = parsed.scheme;
  form.port = port;
  form.hasUserInfo = parsed.hasUserInfo;
  form.host = asciiLower(hostname);
  if (parsed.scheme !== "") {
    if (form.host !== "") {
      form.class = "absolute";
      return form;
    }
    form.class = "hidden-host";
    if (isAuthorityScheme(parsed.scheme)) recoverAuthority(form, canonical, parsed.scheme.length + 1);
    return form;
  }
  if (form.host !== "" || canonical.startsWith("//")) {
    // "//host/x", or a leading "//" with no host ("///x": net/url reads a rooted path where a
    // browser reads an authority; "//", "//?q"): host-less ones stay ambiguous.
    form.class = "protocol-relative";
    return form;
  }
  if (canonical.charCodeAt(0) === 0x2f) {
    form.class = "relative";
    return form;
  }
  // "host/x": net/url reads a bare path; an address bar navigates to the first segment as a host.
  form.class = "schemeless-host";
  const reparsed = parseLikeGo(`//${canonical}`);
  if (reparsed === null) {
    form.hostUnrecoverable = true;
    return form;
  }
  form.host = asciiLower(splitHostPort(reparsed.host)[0]);
  form.hasUserInfo = reparsed.hasUserInfo;
  return form;
}

// WHATWG URL §4.4 special authority ignore slashes state: after a special scheme's ":" the parser
// skips any run of slashes (backslashes are canonicalized already) and reads an authority, so
// "https:host/x" and "https:/host/x" navigate to host. file is excluded (its slash forms read an
// empty host). The recovery reparses that remainder as "//" + authority.
function recoverAuthority(form: UrlForm, canonical: string, afterColon: number): void {
  let from = afterColon;
  while (from < canonical.length && canonical.charCodeAt(from) === 0x2f) from++;
  const reparsed = parseLikeGo(`//${canonical.slice(from)}`);
  if (reparsed === null) {
    form.hostUnrecoverable = true;
    return;
  }
  const [hostname, port] = splitHostPort(reparsed.host);
  form.host = asciiLower(hostname);
  form.port = port;
  form.hasUserInfo = reparsed.hasUserInfo;
}
