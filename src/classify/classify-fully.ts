import { asciiLower } from "./ascii-lower.js";
import { canonicalizeSlashes } from "./canonicalize-slashes.js";
import { createUrlForm } from "./create-url-form.js";
import { parseLikeGo } from "./parse-like-go.js";
import { InputFlag, removeTabOrNewline, scanInput } from "./preprocess.js";
import { isAuthorityScheme } from "./special-scheme.js";
import { hostnameOf, portColon, portOf } from "./split-host-port.js";
import { trimEdges } from "./trim-edges.js";
import type { UrlForm } from "./url-form.js";

/**
 * The whole classification of a string, every step of the urlform seed in order: the path
 * {@link classify} takes for anything its common-form scan does not settle, and the oracle the
 * property test compares that scan with (tests/properties/classify-common-form.property.test.ts).
 *
 * @example
 * ```ts
 * classifyFully("https:/evil.test/x").class; // "hidden-host"
 * ```
 */
export function classifyFully(raw: string): UrlForm {
  // WHATWG URL §4.4 basic URL parser, input preprocessing (see preprocess.ts): edges, then tab/newline.
  const edged = trimEdges(raw);
  const flags = scanInput(edged);
  const trimmed = flags & InputFlag.tabOrNewline ? removeTabOrNewline(edged) : edged;
  const form = createUrlForm(trimmed, flags);
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
