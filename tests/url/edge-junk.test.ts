import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explain, normalize } from "../../src/index.js";
import { isEdgeJunk } from "../../src/url/edge-junk.js";

describe("white space at the input's end", () => {
  it("is what String#trim and the WHATWG parser trim, nothing more", () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      const trimmed = c <= 0x20 || `a${ch}`.trim() === "a";
      assert.equal(isEdgeJunk(c), trimmed, `U+${c.toString(16).padStart(4, "0")}`);
    }
  });

  // The text lane percent-encodes non-ASCII on the text, as the parser does; parseInput trims
  // Unicode white space at the end first. normalize() answered "…/x%C2%A0" where explain() and
  // the CLI answered "…/x" before the scan refused such a text.
  it("is trimmed by normalize() as by explain(), on the text lane's links too", () => {
    const cases: [string, string][] = [
      ["https://a.test/x\u00a0", "https://a.test/x"],
      ["https://a.test/x?q=1\u2028", "https://a.test/x?q=1"],
      ["https://a.test/\u00e9\ufeff", "https://a.test/%C3%A9"],
      ["https://www.youtube.com/watch?v=abc\u3000", "https://www.youtube.com/watch?v=abc"],
      ["https://a.test/a\u00a0b", "https://a.test/a%C2%A0b"],
    ];
    for (const [input, want] of cases) {
      assert.equal(explain(input).canonical, want, `explain ${JSON.stringify(input)}`);
      assert.equal(normalize(input), want, `normalize ${JSON.stringify(input)}`);
    }
  });
});
