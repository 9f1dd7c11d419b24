import { InputFlag } from "./preprocess.js";
import { hasScriptScheme } from "./script-scheme.js";
import type { UrlForm } from "./url-form.js";

/**
 * A new {@link UrlForm} of class `empty` for a preprocessed string and its {@link InputFlag} bits,
 * with no host, scheme, port or userinfo yet: the one place the record is spelled out, so that
 * every path returns the same shape (and the classify-alone bundle carries one literal, not three).
 *
 * @example
 * ```ts
 * createUrlForm("https://a.test/", 0).scriptScheme; // false
 * ```
 */
export function createUrlForm(trimmed: string, flags: number): UrlForm {
  return {
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
}
