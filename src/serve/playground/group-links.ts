/** One key of the "many links" view and the links it united, in the order they were pasted. */
export interface LinkGroup {
  key: string;
  links: string[];
}

/** What the "many links" view shows: groups in first-seen order, links that failed, links left out. */
export interface GroupedLinks {
  groups: LinkGroup[];
  failed: { link: string; message: string }[];
  /** Lines past `max`, not grouped (a pasted log of a million lines would freeze the tab). */
  skipped: number;
}

/**
 * Groups pasted links by their key, first-seen order, so a person sees at a glance which copies
 * were united and which stayed apart. Blank lines are ignored; a link `keyOf` throws on is listed
 * with the error's message; at most `max` lines are read.
 *
 * @example
 * ```ts
 * groupLinks(["https://a.test/?utm_source=x", "https://a.test/"], (u) => normalize(u), 100).groups;
 * // [{ key: "https://a.test/", links: ["https://a.test/?utm_source=x", "https://a.test/"] }]
 * ```
 */
export function groupLinks(
  lines: readonly string[],
  keyOf: (link: string) => string,
  max: number,
): GroupedLinks {
  const byKey = new Map<string, LinkGroup>();
  const failed: GroupedLinks["failed"] = [];
  const links = lines.filter((line) => line.trim() !== "");
  for (const link of links.slice(0, max)) {
    let key: string;
    try {
      key = keyOf(link);
    } catch (error) {
      failed.push({ link, message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, { key, links: [link] });
    else group.links.push(link);
  }
  return { groups: [...byKey.values()], failed, skipped: Math.max(0, links.length - max) };
}
