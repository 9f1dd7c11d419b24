/**
 * The longest fragment a domain rule may keep. A rule's keepFragment is a regular expression; the
 * fragments it is tested on are bounded, so a pattern that backtracks polynomially stays cheap
 * (validateRules refuses the exponential shapes). A longer fragment is never kept: GitHub's
 * #L10-L20 and every kept form we know are far shorter. Shared by the pipeline and the rule text
 * lane, which must decide alike.
 *
 * @example
 * ```ts
 * fragment.length <= MAX_KEPT_FRAGMENT_LENGTH && rule.keepFragment.test(fragment);
 * ```
 */
export const MAX_KEPT_FRAGMENT_LENGTH = 256;
