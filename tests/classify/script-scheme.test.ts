import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { classify } from "../../src/classify/index.js";
import { formWarnings } from "../../src/serve/playground/warnings.js";

// Issue 23, item 6: classify had no fact for script-bearing schemes, and the playground labelled
// javascript:alert(1) "hidden host".

describe("classify: scriptScheme (issue 23)", () => {
  const rows: [string, boolean][] = [
    ["javascript:alert(1)", true],
    ["JavaScript:alert(document.domain)", true],
    ["  java\tscript:alert(1)", true], // a tab inside is removed, as a browser does
    ["vbscript:msgbox(1)", true],
    ["data:text/html,<script>alert(1)</script>", true],
    ["DATA:image/svg+xml;base64,PHN2Zz4=", true],
    ["javascript:%zz", true], // runs in a browser whether or not the rest parses
    ["https://example.com/javascript:x", false],
    ["javascripts:x", false],
    ["xjavascript:x", false],
    ["data", false],
    ["/javascript:x", false],
    ["https:evil.test", false],
    ["", false],
  ];
  for (const [input, expected] of rows) {
    it(`${JSON.stringify(input)} → ${expected}`, () => {
      assert.equal(classify(input).scriptScheme, expected);
    });
  }

  it("agrees with the WHATWG parser's scheme wherever it parses (fixed seed)", () => {
    let script = 0;
    let checked = 0;
    fc.assert(
      fc.property(
        fc.mixedCase(
          fc.constantFrom(
            "javascript",
            "vbscript",
            "data",
            "http",
            "https",
            "mailto",
            "java",
            "dat",
            "jav+ascript",
          ),
        ),
        fc.string({ maxLength: 12 }),
        (scheme, rest) => {
          const input = `${scheme}:${rest}`;
          const form = classify(input);
          let parsed: string | undefined;
          try {
            parsed = new URL(input).protocol.slice(0, -1);
          } catch {
            parsed = undefined;
          }
          if (parsed !== undefined && form.trimmed === input) {
            assert.equal(form.scriptScheme, ["javascript", "vbscript", "data"].includes(parsed), input);
            checked++;
          }
          if (form.scriptScheme) script++;
        },
      ),
      { seed: 23, numRuns: 2_000 },
    );
    assert.ok(script > 100 && checked > 1000, `script branch ${script} times, ${checked} compared`);
  });

  it("the playground warns of the script scheme, not of a hidden host", () => {
    const ids = formWarnings(classify("javascript:alert(1)")).map((w) => w.id);
    assert.deepEqual(ids, ["script-scheme"]);
    assert.match(formWarnings(classify("javascript:alert(1)"))[0]?.text ?? "", /javascript: runs code/);
    assert.deepEqual(
      formWarnings(classify("https:evil.test")).map((w) => w.id),
      ["hidden-host"],
    );
  });
});
