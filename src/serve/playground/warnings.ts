import { isAsciiHost } from "../../classify/is-ascii-host.js";
import type { UrlForm } from "../../classify/url-form.js";

/** A structural fact of an input worth a warning, as the playground shows it. */
export interface FormWarning {
  id:
    | "script-scheme"
    | "hidden-host"
    | "userinfo"
    | "backslash"
    | "tab-or-newline"
    | "non-ascii-host"
    | "host-unrecoverable";
  text: string;
}

/**
 * The warnings a {@link UrlForm} calls for: the facts by which a string can show a person one host
 * and send a browser to another.
 *
 * @example
 * ```ts
 * formWarnings(classify("https://bank.example@evil.example/")).map((w) => w.id); // ["userinfo"]
 * ```
 */
export function formWarnings(form: UrlForm): FormWarning[] {
  const out: FormWarning[] = [];
  if (form.scriptScheme) {
    // Not "hidden host" (issue 23): javascript:alert(1) leads to no host at all; it runs code.
    out.push({
      id: "script-scheme",
      text: `script scheme: ${form.scheme === "" ? "this" : `${form.scheme}:`} runs code or shows its own document when followed, it leads to no site`,
    });
  } else if (form.class === "hidden-host") {
    out.push({ id: "hidden-host", text: "hidden host: no // is shown, yet a browser reads a host here" });
  }
  if (form.hasUserInfo) {
    out.push({ id: "userinfo", text: "userinfo: the text before @ is not the host" });
  }
  if (form.hasBackslash) {
    out.push({ id: "backslash", text: "backslash: browsers read \\ as / in special URLs" });
  }
  if (form.hasTabOrNewline) {
    out.push({
      id: "tab-or-newline",
      text: "tab or newline: browsers delete them, which can join a hidden host",
    });
  }
  if (form.host !== "" && !isAsciiHost(form.host)) {
    out.push({ id: "non-ascii-host", text: "non-ASCII host: look-alike characters are possible (IDN)" });
  }
  if (form.hostUnrecoverable) {
    out.push({ id: "host-unrecoverable", text: "the host cannot be recovered from this string" });
  }
  return out;
}
