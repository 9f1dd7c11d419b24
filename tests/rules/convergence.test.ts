import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isRuleError, type RuleError, type RuleProblem } from "../../src/errors/index.js";
import { loadRules } from "../../src/index.js";
import { convergenceProblems } from "../../src/rules/convergence.js";
import type { DeclarativeRule } from "../../src/rules/declarative-rule.js";
import type { DeclaredRule } from "../../src/rules/declared-rule.js";
import { defaultRules } from "../../src/rules/default-rules.js";
import { compileRules } from "../../src/rules/load-rules.js";

function refused(rules: Partial<DeclarativeRule>[]): RuleProblem[] {
  try {
    compileRules(rules);
  } catch (e) {
    assert.ok(isRuleError(e), `expected a RuleError, got ${String(e)}`);
    assert.equal((e as RuleError).code, "invalid-rule");
    return [...(e as RuleError).problems];
  }
  assert.fail("expected the rules to be refused at load");
}

describe("rules that never reach a fixed point are refused at load", () => {
  it("two unwrappers into each other: both named, the reason given", () => {
    const problems = refused([
      { name: "a-v1", domains: ["a.test"], unwrap: [{ path: "/{t*}", target: "https://b.test/{t}" }] },
      { name: "b-v1", domains: ["b.test"], unwrap: [{ path: "/{t*}", target: "https://a.test/{t}" }] },
    ]);
    assert.deepEqual(
      problems.map((p) => p.path),
      ["[0].unwrap[0]", "[1].unwrap[0]"],
    );
    const [first] = problems;
    assert.match(first?.message ?? "", /never settles/);
    assert.match(first?.message ?? "", /a-v1 → b-v1 → a-v1 → …/);
    assert.match(first?.message ?? "", /unwrap into each other or themselves/);
  });

  it("an unwrapper into itself", () => {
    const problems = refused([
      {
        name: "s-v1",
        domains: ["s.test"],
        unwrap: [{ path: "/go/{t*}", target: "https://s.test/go/x/{t}" }],
      },
    ]);
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? "", /s-v1 → s-v1 → …/);
  });

  it("the issue's target repeating its capture 8 times: refused for its growth, before any input", () => {
    const problems = refused([
      {
        name: "sg-v1",
        domains: ["sg.test"],
        unwrap: [{ path: "/{t*}", target: "https://sg.test/{t}/{t}/{t}/{t}/{t}/{t}/{t}/{t}" }],
      },
    ]);
    assert.equal(problems[0]?.path, "[0].unwrap[0]");
    assert.match(problems[0]?.message ?? "", /grows past 65536 characters \(sg-v1 → …\)/);
  });

  it("a rewrite whose output its own pattern matches again, differently", () => {
    const problems = refused([
      { name: "r-v1", domains: ["r.test"], pathPatterns: [{ match: "/x/{r*}", rewrite: "/x/y/{r}" }] },
    ]);
    assert.equal(problems[0]?.path, "[0].pathPatterns[0]");
    assert.match(problems[0]?.message ?? "", /"r-v1" rewrites again/);
    assert.match(problems[0]?.message ?? "", /a canonical URL must be a fixed point/);
  });

  it("a rewrite that another rule of the document rewrites again is refused too (YAML, through loadRules)", () => {
    try {
      loadRules(`
- name: zero-v1
  domains: [www.x.test]
  pathPatterns:
    - match: /{id}
      rewrite: /p/{id}
- name: one-v1
  domains: [x.test, www.x.test]
  canonicalHost: www.x.test
  pathPatterns:
    - match: /a/{id}
      rewrite: /{id}
`);
      assert.fail("expected a RuleError");
    } catch (e) {
      assert.ok(isRuleError(e));
      const problem = (e as RuleError).problems[0];
      assert.equal((e as RuleError).problems.length, 1);
      assert.equal(problem?.path, "[1].pathPatterns[0]");
      assert.match(
        problem?.message ?? "",
        /becomes https:\/\/www\.x\.test\/v0, which "zero-v1" rewrites again/,
      );
    }
  });

  it("rules that settle are accepted: a rewrite, an unwrap to another host, a one-shot repeat", () => {
    const rules = compileRules([
      { name: "e-v1", domains: ["e.test"], pathPatterns: [{ match: "/embed/{id}", rewrite: "/watch/{id}" }] },
      { name: "w-v1", domains: ["w.test"], unwrap: [{ path: "/l/{t*}", target: "https://dest.test/{t}" }] },
      { name: "d-v1", domains: ["d.test"], unwrap: [{ path: "/{t*}", target: "https://dest.test/{t}/{t}" }] },
      { name: "p-v1", domains: ["p.test"], unwrap: [{ path: "/out", param: "u" }] },
    ]);
    assert.deepEqual(
      rules.map((r) => r.name),
      ["e-v1", "w-v1", "d-v1", "p-v1"],
    );
  });

  it("the built-in rules all settle, each probed", () => {
    const declarations = defaultRules.map((r) => (r as DeclaredRule).declaration);
    assert.ok(declarations.length > 5 && declarations.every((d) => d !== undefined));
    assert.ok(declarations.some((d) => d.unwrap !== undefined) && declarations.some((d) => d.pathPatterns));
    assert.deepEqual(convergenceProblems(declarations), []);
  });
});
