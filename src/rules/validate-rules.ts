import type { RuleProblem } from "../errors/rule-error.js";
import { convergenceProblems } from "./convergence.js";
import type { DeclarativeRule, FragmentKeep, PathPattern, UnwrapForm } from "./declarative-rule.js";
import { createHostSet } from "./host-set.js";
import { compilePathPattern } from "./path-pattern.js";
import { regexHazard } from "./regex-safety.js";
import { compileRewrite } from "./rewrite.js";
import { compileTemplate } from "./template.js";
import { WRAPPER_DECODINGS, type WrapperDecoding } from "./wrapper-decoding.js";

const RULE_FIELDS = [
  "name",
  "domains",
  "canonicalHost",
  "canonicalScheme",
  "keepParams",
  "stripParams",
  "pathPatterns",
  "stripFragment",
  "keepFragment",
  "unwrap",
  "exemptParams",
  "mirrorHosts",
] as const;
const PATTERN_FIELDS = ["match", "rewrite", "hosts", "keepParams", "stripParams"] as const;
const FRAGMENT_FIELDS = ["pattern", "paths"] as const;
const UNWRAP_FIELDS = ["path", "param", "target", "keepQuery", "sameHost", "decode"] as const;
// An unwrap rule hands its target to the whole pipeline; rewriting the wrapper as well would mean
// two answers to one link.
const REWRITING_FIELDS = /* @__PURE__ */ RULE_FIELDS.filter(
  (f) => f !== "name" && f !== "domains" && f !== "unwrap" && f !== "exemptParams",
);

// Lowercase ASCII labels as URL.hostname gives them (IDNs in punycode), so that matching is a plain
// string comparison on the hot path.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Whether `text` is a host name as `URL.hostname` gives it: lowercase ASCII labels, punycode for
 * IDNs, no port, no trailing dot.
 *
 * @example
 * ```ts
 * isHostName("www.youtube.com"); // true
 * isHostName("YouTube.com");     // false
 * ```
 */
export function isHostName(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  for (const label of text.split(".")) if (!LABEL.test(label)) return false;
  return true;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

class Collector {
  readonly problems: RuleProblem[] = [];
  add(path: string, message: string): void {
    this.problems.push({ path, message });
  }
  /** Reports every key of `value` not in `fields`, with a hint when only the case is wrong. */
  unknownKeys(value: Json, fields: readonly string[], path: string): void {
    for (const key of Object.keys(value)) {
      if (fields.includes(key)) continue;
      const near = fields.find((f) => f.toLowerCase() === key.toLowerCase());
      this.add(join(path, key), near ? `unknown field; did you mean "${near}"?` : "unknown field");
    }
  }
}

const join = (path: string, key: string | number): string =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;

function stringList(
  c: Collector,
  value: unknown,
  path: string,
  check: (item: string, path: string) => void,
  nonEmpty: boolean,
): string[] | undefined {
  if (!Array.isArray(value)) {
    c.add(path, "must be a list of strings");
    return undefined;
  }
  if (nonEmpty && value.length === 0) c.add(path, "must not be empty");
  const out: string[] = [];
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const at = join(path, i);
    if (typeof item !== "string" || item === "") {
      c.add(at, "must be a non-empty string");
      return;
    }
    if (seen.has(item)) c.add(at, `"${item}" is listed twice`);
    seen.add(item);
    check(item, at);
    out.push(item);
  });
  return out;
}

function checkDomain(c: Collector, item: string, at: string): void {
  const host = item.startsWith("*.") ? item.slice(2) : item;
  if (host !== host.toLowerCase()) c.add(at, `"${item}" must be lowercase`);
  else if (!isHostName(host))
    c.add(at, `"${item}" is not a host name (lowercase ASCII, punycode for IDNs, "*." for subdomains)`);
}

function checkParamPattern(c: Collector, item: string, at: string, prefixAllowed: boolean): void {
  const star = item.indexOf("*");
  if (star === -1) return;
  if (!prefixAllowed) c.add(at, `"${item}": these are exact names, "*" is not allowed`);
  else if (star !== item.length - 1 || item.length === 1)
    c.add(at, `"${item}": "*" is only allowed at the end of a name, as a prefix match`);
}

function validatePathPatterns(
  c: Collector,
  value: unknown,
  path: string,
  domains: string[] | undefined,
): PathPattern[] {
  const out: PathPattern[] = [];
  if (!Array.isArray(value)) {
    c.add(path, "must be a list of { match, rewrite }");
    return out;
  }
  const claimed = createHostSet(domains ?? []);
  value.forEach((item, i) => {
    const at = join(path, i);
    if (!isObject(item)) {
      c.add(at, "must be an object { match, rewrite }");
      return;
    }
    c.unknownKeys(item, PATTERN_FIELDS, at);
    let names: readonly string[] | undefined;
    if (typeof item.match !== "string") c.add(join(at, "match"), "required: a path pattern string");
    else {
      const p = compilePathPattern(item.match);
      if (p.ok) names = p.value.names;
      else c.add(join(at, "match"), p.message);
    }
    if (typeof item.rewrite !== "string") c.add(join(at, "rewrite"), "required: a rewrite string");
    else if (names !== undefined) {
      const r = compileRewrite(item.rewrite, names);
      if (!r.ok) c.add(join(at, "rewrite"), r.message);
    }
    let hosts: string[] | undefined;
    if (item.hosts !== undefined) {
      hosts = stringList(
        c,
        item.hosts,
        join(at, "hosts"),
        (h, hat) => {
          checkDomain(c, h, hat);
          if (domains !== undefined && !h.startsWith("*.") && !claimed.has(h))
            c.add(hat, `"${h}" is not one of the rule's domains`);
          if (domains !== undefined && h.startsWith("*.") && !domains.includes(h))
            c.add(hat, `"${h}" is not one of the rule's domains`);
        },
        true,
      );
    }
    let keepParams: string[] | undefined;
    if (item.keepParams !== undefined)
      keepParams = stringList(
        c,
        item.keepParams,
        join(at, "keepParams"),
        (p, pat) => checkParamPattern(c, p, pat, false),
        false,
      );
    let stripParams: string[] | undefined;
    if (item.stripParams !== undefined)
      stripParams = stringList(
        c,
        item.stripParams,
        join(at, "stripParams"),
        (p, pat) => checkParamPattern(c, p, pat, true),
        false,
      );
    if (typeof item.match === "string" && typeof item.rewrite === "string")
      out.push({
        match: item.match,
        rewrite: item.rewrite,
        ...(hosts === undefined ? {} : { hosts }),
        ...(keepParams === undefined ? {} : { keepParams }),
        ...(stripParams === undefined ? {} : { stripParams }),
      });
  });
  return out;
}

function validatePattern(c: Collector, value: unknown, at: string): string | undefined {
  if (typeof value !== "string" || value === "") {
    c.add(at, "must be a non-empty regular expression string");
    return undefined;
  }
  try {
    new RegExp(value, "u");
  } catch (e) {
    c.add(at, `not a valid regular expression: ${(e as Error).message}`);
    return undefined;
  }
  // A rule file is input too: a pattern that backtracks catastrophically would let one fragment
  // stall every normalize on the rule's hosts.
  const hazard = regexHazard(value);
  if (hazard !== undefined) {
    c.add(at, hazard);
    return undefined;
  }
  return value;
}

function validateKeepFragment(c: Collector, value: unknown, path: string): FragmentKeep | undefined {
  if (typeof value === "string") {
    const pattern = validatePattern(c, value, path);
    return pattern === undefined ? undefined : { pattern };
  }
  if (!isObject(value)) {
    c.add(path, "must be a regular expression string or { pattern, paths }");
    return undefined;
  }
  c.unknownKeys(value, FRAGMENT_FIELDS, path);
  const pattern = validatePattern(c, value.pattern, join(path, "pattern"));
  let paths: string[] | undefined;
  if (value.paths !== undefined) {
    paths = stringList(
      c,
      value.paths,
      join(path, "paths"),
      (p, at) => {
        const compiled = compilePathPattern(p);
        if (!compiled.ok) c.add(at, compiled.message);
      },
      true,
    );
  }
  if (pattern === undefined) return undefined;
  return paths === undefined ? { pattern } : { pattern, paths };
}

function validateUnwrap(c: Collector, value: unknown, path: string): UnwrapForm[] {
  const out: UnwrapForm[] = [];
  if (!Array.isArray(value) || value.length === 0) {
    c.add(path, "must be a non-empty list of { path, param } or { path, target }");
    return out;
  }
  value.forEach((item, i) => {
    const at = join(path, i);
    if (!isObject(item)) {
      c.add(at, "must be an object { path, param } or { path, target }");
      return;
    }
    c.unknownKeys(item, UNWRAP_FIELDS, at);
    let names: readonly string[] | undefined;
    if (typeof item.path !== "string") c.add(join(at, "path"), "required: a path pattern string");
    else {
      const p = compilePathPattern(item.path);
      if (p.ok) names = p.value.names;
      else c.add(join(at, "path"), p.message);
    }
    const hasParam = item.param !== undefined;
    const hasTarget = item.target !== undefined;
    if (hasParam === hasTarget) c.add(at, 'needs exactly one of "param" and "target"');
    if (hasParam && (typeof item.param !== "string" || item.param === ""))
      c.add(join(at, "param"), "must be a non-empty parameter name");
    if (hasTarget) {
      if (typeof item.target !== "string") c.add(join(at, "target"), "must be a template string");
      else if (names !== undefined) {
        const t = compileTemplate(item.target, names);
        if (!t.ok) c.add(join(at, "target"), t.message);
      }
    }
    if (item.keepQuery !== undefined && typeof item.keepQuery !== "boolean")
      c.add(join(at, "keepQuery"), "must be true or false");
    if (item.keepQuery === true && hasParam)
      c.add(join(at, "keepQuery"), 'only a "target" unwrap carries the query over');
    if (item.sameHost !== undefined && typeof item.sameHost !== "boolean")
      c.add(join(at, "sameHost"), "must be true or false");
    if (item.sameHost === true && !hasParam)
      c.add(join(at, "sameHost"), 'only a "param" unwrap reads a path target on its own host');
    if (item.decode !== undefined && !(WRAPPER_DECODINGS as readonly unknown[]).includes(item.decode))
      c.add(join(at, "decode"), `must be one of ${WRAPPER_DECODINGS.join(", ")}`);
    if (typeof item.path !== "string") return;
    const form: {
      path: string;
      param?: string;
      target?: string;
      keepQuery?: boolean;
      sameHost?: boolean;
      decode?: WrapperDecoding;
    } = {
      path: item.path,
    };
    if (typeof item.param === "string") form.param = item.param;
    if (typeof item.target === "string") form.target = item.target;
    if (typeof item.keepQuery === "boolean") form.keepQuery = item.keepQuery;
    if (typeof item.sameHost === "boolean") form.sameHost = item.sameHost;
    if (WRAPPER_DECODINGS.includes(item.decode as WrapperDecoding))
      form.decode = item.decode as WrapperDecoding;
    out.push(form);
  });
  return out;
}

function validateCanonicalHost(c: Collector, value: unknown, at: string): void {
  if (typeof value !== "string" || value === "") {
    c.add(at, "must be a host name");
    return;
  }
  const templated = value.includes("{");
  if (templated && !(value === "{domain}" || /^[^{}]+\.\{domain\}$/.test(value))) {
    c.add(at, `"${value}": the only placeholder is a final "{domain}", as in "www.{domain}"`);
    return;
  }
  const host = value.replace("{domain}", "example.com");
  if (!isHostName(host)) {
    c.add(at, `"${value}" is not a lowercase host name (no scheme, port or path)`);
    return;
  }
  // A literal canonical host outside `domains` is claimed implicitly (DeclaredRule adds it), so the
  // rule still claims its own output: the pipeline would take unclaimed output for an unwrapped link.
}

function validateRule(
  c: Collector,
  value: unknown,
  at: string,
  seenNames: Map<string, number>,
  index: number,
) {
  if (!isObject(value)) {
    c.add(at, "must be an object with at least name and domains");
    return undefined;
  }
  c.unknownKeys(value, RULE_FIELDS, at);
  const rule: Record<string, unknown> = {};

  if (typeof value.name !== "string" || value.name.trim() === "")
    c.add(join(at, "name"), "required: a non-empty string");
  else if (/\s/.test(value.name)) c.add(join(at, "name"), `"${value.name}" must not contain whitespace`);
  else {
    const first = seenNames.get(value.name);
    if (first !== undefined) c.add(join(at, "name"), `"${value.name}" is already the name of [${first}]`);
    else seenNames.set(value.name, index);
    rule.name = value.name;
  }

  let domains: string[] | undefined;
  if (value.domains === undefined) c.add(join(at, "domains"), "required: a list of host names");
  else domains = stringList(c, value.domains, join(at, "domains"), (d, dat) => checkDomain(c, d, dat), true);
  rule.domains = domains;

  if (value.canonicalHost !== undefined) {
    validateCanonicalHost(c, value.canonicalHost, join(at, "canonicalHost"));
    rule.canonicalHost = value.canonicalHost;
  }
  if (value.canonicalScheme !== undefined) {
    if (value.canonicalScheme !== "http" && value.canonicalScheme !== "https")
      c.add(join(at, "canonicalScheme"), 'must be "http" or "https"');
    rule.canonicalScheme = value.canonicalScheme;
  }
  if (value.keepParams !== undefined)
    rule.keepParams = stringList(
      c,
      value.keepParams,
      join(at, "keepParams"),
      (p, pat) => checkParamPattern(c, p, pat, false),
      false,
    );
  if (value.stripParams !== undefined)
    rule.stripParams = stringList(
      c,
      value.stripParams,
      join(at, "stripParams"),
      (p, pat) => checkParamPattern(c, p, pat, true),
      false,
    );
  if (value.pathPatterns !== undefined) {
    // A pattern may name the implicitly claimed canonical host in its `hosts`.
    const claimed =
      domains !== undefined && typeof value.canonicalHost === "string" && !value.canonicalHost.includes("{")
        ? [...domains, value.canonicalHost]
        : domains;
    rule.pathPatterns = validatePathPatterns(c, value.pathPatterns, join(at, "pathPatterns"), claimed);
  }
  if (value.mirrorHosts !== undefined) {
    const claimed = createHostSet(domains ?? []);
    if (value.mirrorHosts === true) rule.mirrorHosts = true;
    else
      rule.mirrorHosts = stringList(
        c,
        value.mirrorHosts,
        join(at, "mirrorHosts"),
        (h, hat) => {
          checkDomain(c, h, hat);
          if (domains !== undefined && (h.startsWith("*.") ? !domains.includes(h) : !claimed.has(h)))
            c.add(hat, `"${h}" is not one of the rule's domains`);
        },
        false,
      );
    if (value.pathPatterns === undefined && value.unwrap === undefined)
      c.add(join(at, "mirrorHosts"), "a rule without pathPatterns applies on every path already");
  }
  if (value.exemptParams !== undefined) {
    const strip = Array.isArray(value.stripParams)
      ? value.stripParams.filter((p) => typeof p === "string")
      : [];
    rule.exemptParams = stringList(
      c,
      value.exemptParams,
      join(at, "exemptParams"),
      (p, pat) => {
        checkParamPattern(c, p, pat, false);
        const clash = strip.find((s: string) => s === p || (s.endsWith("*") && p.startsWith(s.slice(0, -1))));
        if (clash !== undefined) c.add(pat, `"${p}" is both exempt and stripped ("${clash}"); drop one`);
      },
      true,
    );
  }
  if (value.stripFragment !== undefined) {
    if (typeof value.stripFragment !== "boolean") c.add(join(at, "stripFragment"), "must be true or false");
    rule.stripFragment = value.stripFragment;
  }
  if (value.keepFragment !== undefined) {
    rule.keepFragment = validateKeepFragment(c, value.keepFragment, join(at, "keepFragment"));
    if (value.stripFragment === false)
      c.add(
        join(at, "keepFragment"),
        "stripFragment: false already keeps every fragment; drop one of the two",
      );
  }
  if (value.unwrap !== undefined) {
    rule.unwrap = validateUnwrap(c, value.unwrap, join(at, "unwrap"));
    for (const field of REWRITING_FIELDS)
      if (value[field] !== undefined)
        c.add(join(at, field), "an unwrap rule carries only name, domains and unwrap");
  }
  return rule as unknown as DeclarativeRule;
}

/**
 * Freezes `value` and everything it holds, as the validator returns rules.
 *
 * @example
 * ```ts
 * Object.isFrozen(deepFreeze({ domains: ["a.example"] }).domains); // true
 * ```
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Checks a parsed rule document (the value of a YAML or JSON file: a list of rules) and reports
 * every problem with its path (`[2].pathPatterns[0].rewrite`), not just the first. The rules are
 * returned as frozen copies holding only the known fields; use them only when `problems` is empty.
 *
 * @example
 * ```ts
 * validateRules([{ name: "a-v1", domains: ["Example.com"] }]).problems;
 * // [{ path: "[0].domains[0]", message: '"Example.com" must be lowercase' }]
 * ```
 */
export function validateRules(value: unknown): { rules: DeclarativeRule[]; problems: RuleProblem[] } {
  const c = new Collector();
  const rules: DeclarativeRule[] = [];
  if (!Array.isArray(value)) {
    c.add("", "a rule document is a list of rules");
    return { rules, problems: c.problems };
  }
  const seenNames = new Map<string, number>();
  value.forEach((item, i) => {
    const rule = validateRule(c, item, join("", i), seenNames, i);
    if (rule !== undefined) rules.push(deepFreeze(rule));
  });
  // Only a document that is valid field by field can be run: then it must also settle.
  if (c.problems.length === 0) for (const p of convergenceProblems(rules)) c.add(p.path, p.message);
  return { rules, problems: c.problems };
}
