import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { isRuleError, type RuleError, type RuleProblem } from "../../src/errors/index.js";
import { loadRules } from "../../src/node/load-rules.js";
import { explain, normalize } from "../../src/pipeline/normalize.js";
import { compileRules } from "../../src/rules/compile-rules.js";
import { DeclaredRule } from "../../src/rules/declared-rule.js";
import { validateRules } from "../../src/rules/validate-rules.js";
import { runCli } from "../helpers/run-cli.js";

function problemsOf(run: () => unknown): RuleProblem[] {
  try {
    run();
  } catch (e) {
    assert.ok(isRuleError(e), `expected a RuleError, got ${String(e)}`);
    assert.equal((e as RuleError).code, "invalid-rule");
    return [...(e as RuleError).problems];
  }
  assert.fail("expected loadRules to throw");
}

const paths = (problems: RuleProblem[]) => problems.map((p) => p.path);

describe("loadRules", () => {
  it("compiles YAML and JSON into declared rules", () => {
    const yaml = loadRules(
      "- name: shop-v1\n  domains: [shop.example, www.shop.example]\n  canonicalHost: www.shop.example\n",
    );
    const json = loadRules('[{"name":"shop-v1","domains":["shop.example"]}]', "json");
    assert.equal(yaml.length, 1);
    assert.ok(yaml[0] instanceof DeclaredRule);
    assert.equal(yaml[0]?.name, "shop-v1");
    assert.equal(json[0]?.name, "shop-v1");
    assert.equal(yaml[0]?.apply(new URL("http://shop.example/a")).toString(), "http://www.shop.example/a");
    assert.deepEqual(loadRules("[]"), []);
  });

  it("user rules drive the identity pipeline like the built-ins", () => {
    const rules = loadRules(`
- name: shop-v1
  domains: [shop.example, www.shop.example]
  canonicalHost: www.shop.example
  keepParams: [color]
  pathPatterns:
    - { match: "/item/{id}/{slug}", rewrite: "/item/{id}" }
`);
    assert.equal(
      normalize("http://Shop.example/item/42/blue-shoe/?size=9&color=blue#reviews", { rules }),
      "http://www.shop.example/item/42?color=blue",
    );
  });

  it("reports a problem deep in the document at its path", () => {
    const doc = [
      { name: "a-v1", domains: ["a.example"] },
      { name: "b-v1", domains: ["b.example"] },
      { name: "c-v1", domains: ["c.example"], pathPatterns: [{ match: "/x/{id}", rewrite: "/y/{nope}" }] },
    ];
    const problems = problemsOf(() => loadRules(JSON.stringify(doc), "json"));
    assert.deepEqual(paths(problems), ["[2].pathPatterns[0].rewrite"]);
    assert.match(problems[0]?.message ?? "", /\{nope\}/);
  });

  it("reports every problem of every rule in one error", () => {
    const text = `
- name: a-v1
  domains: [Example.com, "*.ok.example", "bad host"]
  canonicalhost: x
  keepParams: ["utm_*"]
  stripParams: ["*", "a*b"]
  pathPatterns:
    - { match: "embed/{id}", rewrite: "/w" }
    - { match: "/e/{id}", rewrite: "/w?v={id}", hosts: [other.example], extra: 1 }
  stripFragment: "no"
- name: a-v1
  domains: []
  canonicalScheme: ftp
- 42
- name: d-v1
  domains: [d.example]
  canonicalHost: www.d.example
  keepFragment: "("
- name: e-v1
  domains: [e.example]
  stripFragment: false
  keepFragment: "L\\\\d+"
`;
    const problems = problemsOf(() => loadRules(text));
    assert.deepEqual(paths(problems), [
      "[0].canonicalhost",
      "[0].domains[0]",
      "[0].domains[2]",
      "[0].keepParams[0]",
      "[0].stripParams[0]",
      "[0].stripParams[1]",
      "[0].pathPatterns[0].match",
      "[0].pathPatterns[1].extra",
      "[0].pathPatterns[1].hosts[0]",
      "[0].stripFragment",
      "[1].name",
      "[1].domains",
      "[1].canonicalScheme",
      "[2]",
      "[3].keepFragment",
      "[4].keepFragment",
    ]);
    const hint = problems.find((p) => p.path === "[0].canonicalhost");
    assert.match(hint?.message ?? "", /did you mean "canonicalHost"/);
    assert.match(problems.find((p) => p.path === "[1].name")?.message ?? "", /already the name of \[0\]/);
  });

  it("the error message names the count and the first problems", () => {
    try {
      loadRules('[{"domains":["a.example"]},{"name":"b"}]');
      assert.fail("expected a throw");
    } catch (e) {
      assert.match(
        (e as Error).message,
        /^2 problems in domain rules: \[0\]\.name: required.*\[1\]\.domains: required/,
      );
    }
  });

  it("syntax errors are problems at the document path", () => {
    const yaml = problemsOf(() => loadRules("- name: a\n  domains: [a\n"));
    assert.ok(yaml.length >= 1);
    assert.ok(yaml.every((p) => p.path === "" && p.message.startsWith("invalid YAML")));
    const json = problemsOf(() => loadRules("[{", "json"));
    assert.deepEqual(paths(json), [""]);
    assert.match(json[0]?.message ?? "", /invalid JSON/);
    assert.deepEqual(paths(problemsOf(() => loadRules("name: a"))), [""], "a document is a list");
    assert.deepEqual(paths(problemsOf(() => loadRules("- name: a\n  name: b\n  domains: [a.example]\n"))), [
      "",
    ]);
  });

  it("unwrap rules carry only name, domains and unwrap, each form one of param or target", () => {
    const doc = [
      {
        name: "w-v1",
        domains: ["w.example"],
        canonicalHost: "w.example",
        unwrap: [
          { path: "/go", param: "u", target: "https://a.example" },
          { path: "/go" },
          { path: "/to/{rest*}", target: "https://{nope}" },
          { path: "/r", param: "u", keepQuery: true },
          "x",
        ],
      },
      { name: "v-v1", domains: ["v.example"], unwrap: [] },
    ];
    assert.deepEqual(paths(problemsOf(() => compileRules(doc))), [
      "[0].unwrap[0]",
      "[0].unwrap[1]",
      "[0].unwrap[2].target",
      "[0].unwrap[3].keepQuery",
      "[0].unwrap[4]",
      "[0].canonicalHost",
      "[1].unwrap",
    ]);
  });

  it("claims a literal canonical host implicitly, so its output stays its own (issue 14)", () => {
    // Before: refused with "must be one of the rule's domains". Users expect the canonical host claimed.
    const [rule] = compileRules([
      { name: "tube-v1", domains: ["tube.example", "m.tube.example"], canonicalHost: "www.tube.example" },
    ]);
    assert.ok(rule);
    assert.equal(normalize("http://m.tube.example/v/1", { rules: [rule] }), "http://www.tube.example/v/1");
    assert.equal(explain("http://www.tube.example/v/1", { rules: [rule] }).ruleApplied, "tube-v1");
    assert.equal(rule.declaration?.domains.length, 2, "the declaration stays as written");
    // A pattern may restrict itself to the implicit host.
    assert.equal(
      compileRules([
        {
          name: "t-v1",
          domains: ["t.example"],
          canonicalHost: "www.t.example",
          pathPatterns: [{ match: "/a", rewrite: "/b", hosts: ["www.t.example"] }],
        },
      ]).length,
      1,
    );
    // A template is still checked: only a final "{domain}".
    assert.deepEqual(
      paths(
        problemsOf(() =>
          compileRules([{ name: "a-v1", domains: ["a.example"], canonicalHost: "{domain}.x" }]),
        ),
      ),
      ["[0].canonicalHost"],
    );
  });

  it("rejects a non-string text and an unknown format with TypeError", () => {
    assert.throws(() => loadRules(42 as unknown as string), TypeError);
    assert.throws(() => loadRules("[]", "toml" as "json"), TypeError);
  });

  it("returns frozen declarations holding only known fields", () => {
    const [rule] = compileRules([{ name: "a-v1", domains: ["a.example"], stripParams: ["x"] }]);
    assert.ok(rule);
    assert.ok(Object.isFrozen(rule.declaration));
    assert.ok(Object.isFrozen(rule.declaration.domains));
    assert.ok(Object.isFrozen(rule));
    assert.deepEqual(rule.stripParams, ["x"]);
  });
});

describe("validateRules is total", () => {
  // Each field is either a plausible value or anything at all, so both the valid branch and the
  // problem branches are reached; the counters prove it.
  const field = (...valid: unknown[]) => fc.oneof(fc.constantFrom(...valid), fc.anything());
  const rule = fc.record(
    {
      name: field("a-v1", "b-v1"),
      domains: field(["a.example"], ["*.a.example", "b.example"]),
      canonicalHost: field("a.example", "www.{domain}"),
      canonicalScheme: field("https", "http"),
      keepParams: field(["v"], []),
      stripParams: field(["t", "utm_*"]),
      pathPatterns: field([{ match: "/e/{id}", rewrite: "/w?v={id}" }], [{ match: "/{r*}", rewrite: "/" }]),
      stripFragment: field(true, false),
      keepFragment: field("L\\d+", { pattern: "x", paths: ["/a/{b*}"] }),
      unwrap: field([{ path: "/go", param: "u" }]),
    },
    { requiredKeys: [] },
  );

  it("never throws, and a document without problems always compiles", () => {
    let valid = 0;
    let invalid = 0;
    fc.assert(
      fc.property(fc.oneof(fc.array(rule, { maxLength: 3 }), fc.anything()), (doc) => {
        const { problems } = validateRules(doc);
        if (problems.length === 0) {
          valid++;
          compileRules(doc);
        } else {
          invalid++;
          for (const p of problems) assert.equal(typeof p.path, "string");
        }
      }),
      { seed: 20261202, numRuns: 600 },
    );
    assert.ok(valid > 10, `valid branch reached ${valid} times`);
    assert.ok(invalid > 10, `invalid branch reached ${invalid} times`);
  });
});

// yaml raises alias problems from toJS(), not in doc.errors; they used to escape loadRules as a raw
// ReferenceError, which the CLI printed as "internal error" with a stack and exit 1.
const UNDEFINED_ALIAS = "- name: *nope\n  domains: [a.example]\n";
// Each level multiplies by ten: 10^4 nodes from 40 aliases is past yaml's maxAliasCount of 100.
const EXCESSIVE_ALIASES = [
  "- name: a-v1",
  "  domains: [a.example]",
  "  x: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]",
  "  y: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
  "  z: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
  "  w: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
  "  v: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
  "",
].join("\n");

describe("loadRules raises only RuleError on alias problems", () => {
  for (const [what, text, cause] of [
    ["an alias to an undefined anchor", UNDEFINED_ALIAS, /Unresolved alias/],
    ["an excessive alias count", EXCESSIVE_ALIASES, /Excessive alias count/],
  ] as const) {
    it(what, () => {
      let caught: unknown;
      try {
        loadRules(text);
      } catch (e) {
        caught = e;
      }
      assert.ok(isRuleError(caught), `expected a RuleError, got ${String(caught)}`);
      const error = caught as RuleError;
      assert.equal(error.code, "invalid-rule");
      assert.deepEqual(paths([...error.problems]), [""]);
      assert.match(error.problems[0]?.message ?? "", cause);
      // The parser's own error stays reachable as the cause.
      assert.ok(error.cause instanceof ReferenceError, `cause: ${String(error.cause)}`);
      assert.match((error.cause as Error).message, cause);
    });
  }

  it("the CLI reports either as a rules problem and exits 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "canonurl-alias-"));
    try {
      for (const [name, text] of [
        ["undefined.yaml", UNDEFINED_ALIAS],
        ["excessive.yaml", EXCESSIVE_ALIASES],
      ] as const) {
        const file = join(dir, name);
        writeFileSync(file, text);
        const r = await runCli(["--offline", "--rules", file, "http://a.example/"]);
        assert.equal(r.code, 2, `${name}: exit ${r.code}, stderr: ${r.stderr}`);
        assert.match(r.stderr, /invalid YAML/);
        assert.doesNotMatch(r.stderr, /internal error|ReferenceError|\n\s+at /);
        assert.equal(r.stdout, "");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
