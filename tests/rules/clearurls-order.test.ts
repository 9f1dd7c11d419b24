import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clearUrlsRules, defaultRules, normalize } from "../../src/index.js";

// Issue 22: with the ClearURLs pack placed before the built-in rules, a Google AMP viewer link
// threw "wrapped more than 8 deep": the pack's /amp/s/ redirection captures a target without a
// scheme ("www.bbc.co.uk/news/…"), which was read relative to the wrapper and grew by one wrapper
// per round.
describe("ClearURLs pack in any order", () => {
  const amp = "https://www.google.com/amp/s/www.bbc.co.uk/news/uk-123.amp";

  it("a Google AMP link normalizes with the pack first", () => {
    assert.equal(
      normalize(amp, { rules: [...clearUrlsRules(), ...defaultRules] }),
      "https://www.bbc.co.uk/news/uk-123.amp",
    );
  });

  it("and with the pack last, as before", () => {
    assert.equal(
      normalize(amp, { rules: [...defaultRules, ...clearUrlsRules()] }),
      "https://www.bbc.co.uk/news/uk-123.amp",
    );
  });

  it("the pack alone unwraps it too (its target read as https, as /amp/s/ means)", () => {
    assert.equal(normalize(amp, { rules: clearUrlsRules() }), "https://www.bbc.co.uk/news/uk-123.amp");
  });
});
