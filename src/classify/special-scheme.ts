/**
 * Whether a lowercase scheme is a WHATWG special scheme, the set for which `\` reads as `/`.
 *
 * @example
 * ```ts
 * isSpecialScheme("file"); // true
 * isSpecialScheme("javascript"); // false
 * ```
 */
// WHATWG URL §4.1 special scheme
export function isSpecialScheme(scheme: string): boolean {
  // A regex is shorter than a switch (the classify bundle's 3 KiB ceiling); it runs only for
  // strings with a backslash or no host, where its speed does not matter.
  return /^(?:https?|wss?|ftp|file)$/.test(scheme);
}

/**
 * Whether a lowercase scheme is special and carries an authority after any run of slashes: the
 * special set minus `file`, whose slash forms read an empty host.
 *
 * @example
 * ```ts
 * isAuthorityScheme("wss"); // true
 * isAuthorityScheme("file"); // false
 * ```
 */
export function isAuthorityScheme(scheme: string): boolean {
  return scheme !== "file" && isSpecialScheme(scheme);
}
