import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { successLine } from "../../src/serve/normalize-lines.js";

describe("successLine", () => {
  it("is byte for byte the JSON.stringify of the object, for any text (quotes, escapes, U+2028, lone surrogates)", () => {
    let escaped = 0;
    fc.assert(
      fc.property(
        fc.nat(),
        fc.string({ unit: "binary" }),
        fc.string({ unit: "binary" }),
        fc.option(fc.string({ unit: "binary" })),
        fc.array(fc.string({ unit: "binary" }), { maxLength: 4 }),
        (index, input, canonical, ruleApplied, stripped) => {
          const expected = `${JSON.stringify({ index, input, ok: true, canonical, ruleApplied, paramsStripped: stripped })}\n`;
          assert.equal(successLine(index, input, canonical, ruleApplied, stripped), expected);
          assert.deepEqual(JSON.parse(expected), {
            index,
            input,
            ok: true,
            canonical,
            ruleApplied,
            paramsStripped: stripped,
          });
          // A string whose JSON form is longer than itself plus the quotes needed an escape.
          if (JSON.stringify(input).length !== input.length + 2) escaped++;
        },
      ),
      { seed: 42, numRuns: 2000 },
    );
    assert.ok(escaped > 100, `inputs that need escaping were reached ${escaped} times`);
  });
});
