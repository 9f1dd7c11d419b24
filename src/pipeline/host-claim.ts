/**
 * A test of whether any of a list's host sets claims `hostname`: an exact name, or a proper
 * subdomain of a wildcard domain (`suffixes` hold the dotted suffix, ".example.com" for
 * "*.example.com"). The rule lookup's prefilter and the text gate in front of code rules both ask
 * it on every URL, so it is built once per list.
 *
 * A few wildcard domains (the built-ins) are cheapest tried one by one; thousands of them (user
 * lists) go in a Set, tried once per parent name of the host that could be one.
 *
 * @example
 * ```ts
 * const claims = hostClaim(new Set(["a.test"]), [".b.test"]);
 * claims("x.b.test"); // true
 * claims("b.test"); // false
 * ```
 */
export function hostClaim(
  exact: ReadonlySet<string>,
  suffixes: readonly string[],
): (hostname: string) => boolean {
  const suffixSet = suffixes.length > MAX_LISTED_SUFFIXES ? new Set(suffixes) : undefined;
  let longest = 0;
  for (const suffix of suffixes) longest = Math.max(longest, suffix.length);
  return (hostname) => {
    if (exact.has(hostname)) return true;
    if (suffixSet === undefined) {
      for (const suffix of suffixes) if (hostname.endsWith(suffix)) return true;
      return false;
    }
    for (let dot = hostname.indexOf(".", Math.max(1, hostname.length - longest)); dot !== -1; ) {
      if (suffixSet.has(hostname.slice(dot))) return true;
      dot = hostname.indexOf(".", dot + 1);
    }
    return false;
  };
}

/** Past this many wildcard domains, a Set walked by the host's parent names. */
const MAX_LISTED_SUFFIXES = 8;
