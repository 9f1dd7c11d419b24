import type { RuleProblem } from "../errors/rule-error.js";
import { UrlError } from "../errors/url-error.js";
import { MAX_URL_LENGTH } from "../url/max-url-length.js";
import type { DeclarativeRule } from "./declarative-rule.js";
import { DeclaredRule } from "./declared-rule.js";
import { splitPlaceholders } from "./path-pattern.js";
import { createRuleMatcher } from "./rule-matcher.js";

// More hand-overs than the pipeline itself follows: a chain that long on a probe never ends.
const MAX_PROBE_STEPS = 8;

/**
 * Probes a validated rule document for rules that never reach a fixed point, and reports each
 * with its path. For every path pattern and every `target` unwrap form, a sample URL is built
 * from the pattern (captures filled with short sample values) and run through the document's
 * rules as the pipeline would run it: the first matching rule applies; an unwrapped target is
 * looked up again. A rewrite whose own output the rules change again (`/x/{r*}` → `/x/y/{r}`), or
 * unwrapping that is still going after 8 steps (a rule that unwraps into itself, two that unwrap
 * into each other), is refused: `normalize` would not be idempotent, or would grow its output on
 * every step (a target `https://sg.test/{t}/{t}/…` turned 1 KB into 32 MB before).
 *
 * A probe, not a proof: it catches loops every input of a pattern takes. Loops that depend on the
 * data (a wrapper carrying a link to itself in `?q=`) are cut at run time by the unwrap depth and
 * the length bound (see `normalize`).
 *
 * @example
 * ```ts
 * convergenceProblems([{ name: "sg-v1", domains: ["sg.test"], unwrap: [{ path: "/{t*}", target: "https://sg.test/{t}/{t}" }] }]);
 * // [{ path: "[0].unwrap[0]", message: "never settles: …" }]
 * ```
 */
export function convergenceProblems(declarations: readonly DeclarativeRule[]): RuleProblem[] {
  let rules: DeclaredRule[];
  try {
    rules = declarations.map((d) => new DeclaredRule(d));
  } catch {
    return []; // not a validated document: the validator has reported why
  }
  const find = createRuleMatcher(rules);
  const problems: RuleProblem[] = [];
  declarations.forEach((declaration, index) => {
    const host = sampleHost(declaration.domains);
    declaration.pathPatterns?.forEach((pattern, j) => {
      const sampleHosts = pattern.hosts === undefined ? host : sampleHost(pattern.hosts);
      const problem = probe(`https://${sampleHosts}${samplePath(pattern.match)}`, find);
      if (problem !== undefined) problems.push({ path: `[${index}].pathPatterns[${j}]`, message: problem });
    });
    declaration.unwrap?.forEach((form, j) => {
      // A `param` form's target comes from the link itself: nothing to probe at load.
      if (form.target === undefined) return;
      const problem = probe(`https://${host}${samplePath(form.path)}`, find);
      if (problem !== undefined) problems.push({ path: `[${index}].unwrap[${j}]`, message: problem });
    });
  });
  return problems;
}

function sampleHost(domains: readonly string[]): string {
  const first = domains[0] ?? "example.test";
  return first.startsWith("*.") ? `www.${first.slice(2)}` : first;
}

// The pattern with each {name} filled by a short value and a {name*} by two segments.
function samplePath(pattern: string): string {
  const split = splitPlaceholders(pattern);
  if (!split.ok) return pattern;
  let n = 0;
  return split.value
    .map((piece) => (typeof piece === "string" ? piece : piece.rest ? "r/s" : `v${n++}`))
    .join("");
}

function probe(start: string, find: (url: URL) => DeclaredRule | undefined): string | undefined {
  const chain: string[] = [];
  // The chain up to the first rule that comes back: the loop, named once.
  let cycle: string | undefined;
  let href = start;
  try {
    for (let step = 0; step <= MAX_PROBE_STEPS; step++) {
      const url = new URL(href);
      const rule = find(url);
      if (rule === undefined) return undefined;
      // Named before it runs: a target that multiplies its capture throws inside apply.
      chain.push(rule.name);
      if (chain.indexOf(rule.name) < chain.length - 1 && cycle === undefined) cycle = chain.join(" → ");
      const out = rule.apply(new URL(href));
      const next = typeof out === "string" ? out : out.href;
      if (rule.declaration.unwrap === undefined) {
        // A rewrite: the next normalize reads its output again, and must find nothing to change.
        if (next === href) return undefined;
        const again = find(new URL(next));
        if (again === undefined) return undefined;
        const twice = again.apply(new URL(next));
        const after = typeof twice === "string" ? twice : twice.href;
        if (after === next || again.declaration.unwrap !== undefined) return undefined;
        return `never settles: ${start} becomes ${next}, which "${again.name}" rewrites again to ${after}; a canonical URL must be a fixed point`;
      }
      href = next;
    }
  } catch (error) {
    // The length bound tripped on a sample of a few characters: the rules multiply their input.
    if (error instanceof UrlError)
      return `never settles: from ${start} the output grows past ${MAX_URL_LENGTH} characters (${cycle ?? chain.join(" → ")} → …); a target that repeats its capture multiplies the URL on every step`;
    return undefined; // a sample the rules cannot take says nothing about the loop
  }
  return `never settles: unwrapping ${start} is still going after ${MAX_PROBE_STEPS} steps (${cycle ?? chain.join(" → ")} → …); the rules unwrap into each other or themselves`;
}
