import { classify, type UrlForm } from "../../src/classify/index.js";

const CLASSES = new Set([
  "empty",
  "malformed",
  "absolute",
  "hidden-host",
  "protocol-relative",
  "schemeless-host",
  "relative",
]);

function hasAsciiUpper(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return true;
  }
  return false;
}

/**
 * The facts of a form other than the ones named: what a metamorphic law compares.
 *
 * @example
 * ```ts
 * factsExcept(classify("a"), "hasTabOrNewline");
 * ```
 */
export function factsExcept(form: UrlForm, ...keys: (keyof UrlForm)[]): Partial<UrlForm> {
  const copy: Partial<UrlForm> = { ...form };
  for (const key of keys) delete copy[key];
  return copy;
}

/**
 * Classifies `raw` and returns every single-input law it breaks (empty when it keeps them all):
 * exactly one known class; no facts for `empty`/`malformed`; a host for `absolute`, none for
 * `relative`; `hostUnrecoverable` only on `schemeless-host`/`hidden-host`; no ASCII upper case
 * in the host; and `classify(trimmed)` reproducing every fact with `hasTabOrNewline` false.
 *
 * @example
 * ```ts
 * violations("https://a.test/"); // []
 * ```
 */
export function violations(raw: string): string[] {
  const out: string[] = [];
  let form: UrlForm;
  try {
    form = classify(raw);
  } catch (error) {
    return [`threw ${String(error)}`];
  }
  if (!CLASSES.has(form.class)) out.push(`unknown class ${form.class}`);
  if (form.class === "empty" || form.class === "malformed") {
    if (
      form.host !== "" ||
      form.scheme !== "" ||
      form.port !== "" ||
      form.hasUserInfo ||
      form.hostUnrecoverable
    )
      out.push("facts on an empty/malformed form");
  }
  if (form.class === "empty" && form.trimmed !== "") out.push("empty with a non-empty trimmed");
  if (form.class === "absolute" && form.host === "") out.push("absolute without a host");
  if (form.class === "relative" && form.host !== "") out.push("relative with a host");
  if (form.hostUnrecoverable && form.class !== "schemeless-host" && form.class !== "hidden-host")
    out.push("hostUnrecoverable outside schemeless-host/hidden-host");
  if (form.hostUnrecoverable && form.host !== "") out.push("hostUnrecoverable with a host");
  if (hasAsciiUpper(form.host)) out.push("ASCII upper case in host");
  if (hasAsciiUpper(form.scheme)) out.push("ASCII upper case in scheme");
  const again = classify(form.trimmed);
  if (JSON.stringify(again) !== JSON.stringify({ ...form, hasTabOrNewline: false }))
    out.push(`classify(trimmed) differs: ${JSON.stringify(again)}`);
  return out;
}
