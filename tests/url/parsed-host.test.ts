import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parsedHost } from "../../src/url/parsed-host.js";

describe("parsedHost", () => {
  it("gives the parser's hostname for a host text, and undefined where the parser fails", () => {
    for (const text of [
      "Bücher.example",
      "0x7f.1",
      "[0:0::1]",
      "EXAMPLE.com.",
      "ex%41mple.com",
      "xn--bcher-kva.example",
    ])
      assert.equal(parsedHost(text), new URL(`https://${text}/x`).hostname, text);
    for (const text of [
      "XN--zz.com",
      "a.1",
      "[::1",
      "a%2Fb",
      "",
      "a b",
      "a\tb",
      "a\\b",
      "u@a",
      "a:1",
      "x".repeat(256),
    ])
      assert.equal(parsedHost(text), undefined, JSON.stringify(text));
  });

  it("answers a remembered text as the first time, after the memo has started over too", () => {
    const text = "Bücher-0.example";
    const first = parsedHost(text);
    assert.equal(first, new URL(`http://${text}/`).hostname);
    for (let i = 0; i < 3000; i++) parsedHost(`Ünique-${i}.example`);
    assert.equal(parsedHost(text), first);
  });
});
