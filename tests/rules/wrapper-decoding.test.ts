import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isRuleError, type RuleError } from "../../src/errors/index.js";
import { normalize } from "../../src/pipeline/normalize.js";
import { compileRules } from "../../src/rules/compile-rules.js";
import { decodeWrappedTarget } from "../../src/rules/wrapper-decoding.js";

// Issue 22 item 4: Proofpoint URL Defense encodes its target in its own schemes.
describe("decodeWrappedTarget", () => {
  it("proofpoint-v2: _ is /, -XX is %XX, decoded once", () => {
    assert.equal(
      decodeWrappedTarget("proofpoint-v2", "https-3A__www.example.org_a-3Fb-3D1"),
      "https://www.example.org/a?b=1",
    );
    // An escaped percent stays one escape of the target.
    assert.equal(
      decodeWrappedTarget("proofpoint-v2", "https-3A__x.example_a-2520b"),
      "https://x.example/a%20b",
    );
    // A malformed escape is not a target.
    assert.equal(decodeWrappedTarget("proofpoint-v2", "https-3A__x.example_-E0-A4"), undefined);
  });

  it("proofpoint-v3: the URL between __ and __; ; a * substitution is not guessed", () => {
    assert.equal(
      decodeWrappedTarget("proofpoint-v3", "__https://a.example/x__y__;!!t$"),
      "https://a.example/x__y",
    );
    assert.equal(decodeWrappedTarget("proofpoint-v3", "__https://a.example/a*b__;Kw!!t$"), undefined);
    assert.equal(decodeWrappedTarget("proofpoint-v3", "https://a.example/__;!!t$"), undefined);
    assert.equal(decodeWrappedTarget("proofpoint-v3", "__https://a.example/"), undefined);
  });

  it("is linear on a 100 KB hostile target, and the pipeline stays bounded", () => {
    const hostile = `https-3A__${"-".repeat(50_000)}${"_".repeat(50_000)}`;
    assert.equal(typeof decodeWrappedTarget("proofpoint-v2", hostile), "string");
    const v3 = `__https://a.example/${"__".repeat(50_000)}`;
    assert.equal(decodeWrappedTarget("proofpoint-v3", v3), undefined);
    // Under the pipeline's 64 KiB input limit.
    const link = `https://urldefense.com/v3/__https://a.example/${"__".repeat(30_000)}`;
    assert.equal(normalize(link), link.replace(/\/$/, ""));
  });

  it("a rule naming an unknown decoding is refused", () => {
    try {
      compileRules([
        { name: "x-v1", domains: ["x.example"], unwrap: [{ path: "/u", param: "u", decode: "rot13" }] },
      ] as never);
      assert.fail("expected a RuleError");
    } catch (e) {
      assert.ok(isRuleError(e));
      assert.deepEqual(
        (e as RuleError).problems.map((p) => p.path),
        ["[0].unwrap[0].decode"],
      );
    }
  });
});
