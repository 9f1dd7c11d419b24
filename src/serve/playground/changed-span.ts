/** How one stage's URL differs from the one before it: a kept head, a removed and an added middle, a kept tail. */
export interface ChangedSpan {
  head: string;
  removed: string;
  added: string;
  tail: string;
}

/**
 * Splits `after` against `before` into the common head, the middle that changed (what `before`
 * had there and what `after` has) and the common tail. One span, not a full diff: a pipeline
 * stage usually changes one region (the host case, a stripped parameter), and one highlighted
 * span reads at a glance where a character-level diff would scatter marks.
 *
 * @example
 * ```ts
 * changedSpan("http://a.example/?utm_x=1&b=2", "http://a.example/?b=2");
 * // { head: "http://a.example/?", removed: "utm_x=1&", added: "", tail: "b=2" }
 * ```
 */
export function changedSpan(before: string, after: string): ChangedSpan {
  const limit = Math.min(before.length, after.length);
  let head = 0;
  while (head < limit && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  let tail = 0;
  while (
    tail < limit - head &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) {
    tail++;
  }
  return {
    head: after.slice(0, head),
    removed: before.slice(head, before.length - tail),
    added: after.slice(head, after.length - tail),
    tail: after.slice(after.length - tail),
  };
}
