import { asciiLower } from "./ascii-lower.js";
import { canonicalizeSlashes } from "./canonicalize-slashes.js";
import { parseLikeGo } from "./parse-like-go.js";
import { InputFlag, removeTabOrNewline, scanInput } from "./preprocess.js";
import { hasScriptScheme } from "./script-scheme.js";
import { isAuthorityScheme } from "./special-scheme.js";
import { hostnameOf, portColon, portOf } from "./split-host-port.js";
import { trimEdges } from "./trim-edges.js";
import type { UrlForm } from "./url-form.js";

/**
 * Classifies a raw, untrusted URL string by structural form and extracts the facts a browser would
 * act on, following the urlform seed: WHATWG input preprocessing first (edges trimmed, embedded
 * tab/CR/LF removed), backslashes read as slashes where a browser reads them so, then Go
 * `net/url`'s acceptance with the browser's readings layered on (slash-count recovery after
 * http/https/ws/wss/ftp, the address bar's schemeless and protocol-relative forms). Pure and total:
 * never throws, every input lands in exactly one class. A value that is not a string (undefined,
 * a number, an object) is `"malformed"` with every fact empty; none of it is read.
 *
 * @example
 * ```ts
 * classify("https:/evil.test/x"); // { class: "hidden-host", host: "evil.test", scheme: "https", ... }
 * classify("https://anime\tbytes.tv").host; // "animebytes.tv" (hasTabOrNewline: true)
 * ```
 */
export function classify(raw: string): UrlForm {
  // Total for any value, not only the strings the type admits: a JavaScript caller or a parsed
  // JSON field can hand over undefined, a number or an object, and a classifier of untrusted input
  // must not throw on it. Nothing of a non-string is read (a toString() could throw or lie).
  if (typeof raw !== "string") return notAString();
  // WHATWG URL §4.4 basic URL parser, input preprocessing (see preprocess.ts): edges, then tab/newline.
  const edged = trimEdges(raw);
  const flags = scanInput(edged);
  const trimmed = flags & InputFlag.tabOrNewline ? removeTabOrNewline(edged) : edged;
  const form: UrlForm = {
    class: "empty",
    trimmed,
    host: "",
    scheme: "",
    port: "",
    hasBackslash: (flags & InputFlag.backslash) !== 0,
    hasTabOrNewline: (flags & InputFlag.tabOrNewline) !== 0,
    hasUserInfo: false,
    hostUnrecoverable: false,
    scriptScheme: hasScriptScheme(trimmed),
  };
  if (trimmed === "") return form;
  const canonical = flags & InputFlag.backslash ? canonicalizeSlashes(trimmed) : trimmed;
  const controlFree = (flags & InputFlag.control) === 0;
  const parsed = parseLikeGo(canonical, controlFree);
  if (parsed === null) {
    form.class = "malformed";
    return form;
  }
  form.scheme = parsed.scheme;
  form.hasUserInfo = parsed.hasUserInfo;
  if (parsed.host !== "") {
    const colon = portColon(parsed.host);
    form.port = portOf(parsed.host, colon);
    form.host = asciiLower(hostnameOf(parsed.host, colon));
  }
  if (parsed.scheme !== "") {
    if (form.host !== "") {
      form.class = "absolute";
      return form;
    }
    form.class = "hidden-host";
    if (isAuthorityScheme(parsed.scheme)) {
      recoverAuthority(form, canonical, parsed.scheme.length + 1, controlFree);
    }
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
  const reparsed = parseLikeGo(`//${canonical}`, controlFree);
  if (reparsed === null) {
    form.hostUnrecoverable = true;
    return form;
  }
  form.host = asciiLower(hostnameOf(reparsed.host));
  form.hasUserInfo = reparsed.hasUserInfo;
  return form;
}

// A value that is not a string carries no URL: "malformed", with every fact empty.
function notAString(): UrlForm {
  return {
    class: "malformed",
    trimmed: "",
    host: "",
    scheme: "",
    port: "",
    hasBackslash: false,
    hasTabOrNewline: false,
    hasUserInfo: false,
    hostUnrecoverable: false,
    scriptScheme: false,
  };
}

// WHATWG URL §4.4 special authority ignore slashes state: after a special scheme's ":" the parser
// skips any run of slashes (backslashes are canonicalized already) and reads an authority, so
// "https:host/x" and "https:/host/x" navigate to host. file is excluded (its slash forms read an
// empty host). The recovery reparses that remainder as "//" + authority.
function recoverAuthority(form: UrlForm, canonical: string, afterColon: number, controlFree: boolean): void {
  let from = afterColon;
  while (from < canonical.length && canonical.charCodeAt(from) === 0x2f) from++;
  const reparsed = parseLikeGo(`//${canonical.slice(from)}`, controlFree);
  if (reparsed === null) {
    form.hostUnrecoverable = true;
    return;
  }
  const colon = portColon(reparsed.host);
  form.host = asciiLower(hostnameOf(reparsed.host, colon));
  form.port = portOf(reparsed.host, colon);
  form.hasUserInfo = reparsed.hasUserInfo;
}
