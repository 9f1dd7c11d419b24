// Loading rule documents from text. The rules room stays pure and parser-free: the YAML parser is
// handed in by the Node entry (src/node/load-rules.ts, which loads `yaml` on the first call), so
// canonurl/core never carries one and `import("canonurl")` does not pay for one up front
// (measured: importing yaml costs ~50 ms and ~10 MB RSS on Node 20).
import { compileRules, ruleErrorOf } from "./compile-rules.js";
import type { DomainRule } from "./domain-rule.js";

// compileRules lived in this file before the parser moved out; kept importable from this path.
export { compileRules } from "./compile-rules.js";

/**
 * The part of a YAML parser rule loading needs: the `parseDocument` of the `yaml` package fits.
 *
 * @example
 * ```ts
 * const parse: YamlDocumentParser = parseDocument; // from the yaml package
 * ```
 */
export type YamlDocumentParser = (text: string) => {
  readonly errors: readonly { readonly message: string }[];
  toJS(): unknown;
};

const SOURCE = "domain rules";

// yaml reports syntax errors in `doc.errors`, but alias problems only when the document is turned into
// values: toJS() throws a ReferenceError for an alias to an anchor not set yet, and for an alias
// count past `maxAliasCount` (100; a "billion laughs" document). Both are the text's fault, so they
// become a RuleError like any other problem, with what yaml threw as the cause.
function parseYaml(parseDocument: YamlDocumentParser, text: string): unknown {
  let doc: ReturnType<YamlDocumentParser>;
  try {
    doc = parseDocument(text);
  } catch (e) {
    throw ruleErrorOf([{ path: "", message: `invalid YAML: ${messageOf(e)}` }], SOURCE, e);
  }
  if (doc.errors.length > 0)
    throw ruleErrorOf(
      doc.errors.map((e) => ({ path: "", message: `invalid YAML: ${e.message}` })),
      SOURCE,
      doc.errors[0],
    );
  try {
    return doc.toJS();
  } catch (e) {
    throw ruleErrorOf([{ path: "", message: `invalid YAML: ${messageOf(e)}` }], SOURCE, e);
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Builds `loadRules` over a YAML parser. `loadRules(text, format?)` parses a rule document in the
 * declarative format (YAML by default, which also reads JSON; or strict JSON with `format: "json"`),
 * validates it and compiles it. A bad document throws only `RuleError` (`invalid-rule`): its
 * `problems` list every problem with its path, e.g. `[2].pathPatterns[0].rewrite`; a syntax or
 * alias error is reported at path `""`, with what the parser threw as `cause`. A `text` that is not
 * a string, or an unknown `format`, is a `TypeError`.
 *
 * @example
 * ```ts
 * const loadRules = createRuleLoader(parseDocument); // parseDocument from the yaml package
 * loadRules("- { name: shop-v1, domains: [shop.example] }")[0].name; // "shop-v1"
 * ```
 */
export function createRuleLoader(
  parseDocument: YamlDocumentParser,
): (text: string, format?: "json" | "yaml") => DomainRule[] {
  return (text, format) => {
    if (typeof text !== "string") throw new TypeError(`loadRules: text must be a string, got ${typeof text}`);
    if (format !== undefined && format !== "json" && format !== "yaml")
      throw new TypeError(`loadRules: format must be "json" or "yaml", got ${String(format)}`);
    let value: unknown;
    if (format === "json") {
      try {
        value = JSON.parse(text);
      } catch (e) {
        throw ruleErrorOf([{ path: "", message: `invalid JSON: ${messageOf(e)}` }], SOURCE, e);
      }
    } else {
      value = parseYaml(parseDocument, text);
    }
    return compileRules(value);
  };
}
