import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsedHost } from "../../src/url/parsed-host.js";

describe("parsedHost", () => {
  it("gives the parser's hostname for a host text, and undefined where the parser fails", () => {
    // The parser is the oracle, whatever its version: Node 26's accepts "XN--zz.com" (as
    // "xn--zz.com"), which Node 20's refuses.
    const parsed = (text: string): string | undefined => {
      try {
        return new URL(`https://${text}/x`).hostname || undefined;
      } catch {
        return undefined;
      }
    };
    for (const text of [
      "Bücher.example",
      "0x7f.1",
      "[0:0::1]",
      "EXAMPLE.com.",
      "ex%41mple.com",
      "xn--bcher-kva.example",
      "XN--zz.com",
      "a.1",
      "[::1",
      "a%2Fb",
    ]) {
      assert.equal(parsedHost(text), parsed(text), text);
    }
    assert.equal(parsedHost("Bücher.example"), "xn--bcher-kva.example");
    assert.equal(parsedHost("[::1"), undefined);
    // Texts that would end or split an authority, or that the parser trims: never a host here.
    for (const text of ["", "a b", "a\tb", "a\\b", "u@a", "a:1", "a/b", "a?b", "a#b", "[::1]:80"])
      assert.equal(parsedHost(text), undefined, JSON.stringify(text));
  });
});
