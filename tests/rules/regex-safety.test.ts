import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isRuleError } from "../../src/errors/index.js";
import { type DomainRule, defaultRules, normalize } from "../../src/index.js";
import { compileRules } from "../../src/rules/load-rules.js";
import { regexHazard } from "../../src/rules/regex-safety.js";

function refusal(pattern: string): string {
  try {
    compileRules([{ name: "frag-v1", domains: ["f.test"], keepFragment: pattern }]);
  } catch (error) {
    assert.ok(isRuleError(error), String(error));
    return error.message;
  }
  assert.fail(`${pattern} was accepted`);
}

describe("keepFragment regular expressions", () => {
  it("refuses the shapes that backtrack catastrophically, naming the rule's field", () => {
    // (a+)+ on 27 characters took 421 ms and doubled per character before this check.
    for (const pattern of ["(a+)+", "(a|ab)*", "(\\w+\\s?)*", "(?:x\\d+){2,}", "(a?)*", "(a)\\1", "a*b*c*d*"])
      assert.match(refusal(pattern), /\[0\]\.keepFragment: .*backtrack/, pattern);
  });

  it("accepts the built-in GitHub line pattern and other linear shapes", () => {
    for (const pattern of ["L\\d+(-L\\d+)?", "[a-z]+", "(?:ab){3}", "\\p{L}+-\\d+", "x?y?z?", "(ab)+"])
      assert.equal(regexHazard(pattern), undefined, pattern);
    assert.ok(
      defaultRules.some((r) => r.keepFragment !== undefined),
      "a built-in rule keeps fragments",
    );
  });

  it("tests a fragment only up to 256 characters, so a hand-written rule's regex is bounded too", () => {
    const lengths: number[] = [];
    // A DomainRule is user code: its keepFragment is not validated, so the pipeline bounds what it
    // is run on. A counting stand-in records every fragment it is asked about.
    const keepFragment = {
      test(fragment: string) {
        lengths.push(fragment.length);
        return /^(a+)+$/.test(fragment.slice(0, 20));
      },
    } as unknown as RegExp;
    const rule: DomainRule = {
      name: "frag-v1",
      match: (url) => url.hostname === "f.test",
      apply: (url) => url,
      keepFragment,
    };
    const short = normalize("http://f.test/x#aaaa", { rules: [rule] });
    assert.equal(short, "http://f.test/x#aaaa");
    const long = normalize(`http://f.test/x#${"a".repeat(10_000)}b`, { rules: [rule] });
    assert.equal(long, "http://f.test/x", "a fragment over the bound is never kept");
    assert.ok(lengths.length > 0 && Math.max(...lengths) <= 256, `tested lengths: ${lengths}`);
  });
});
