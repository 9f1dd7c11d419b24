import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explain, type NormalizeOptions, normalize } from "../../src/index.js";
import { hostFacts } from "../../src/pipeline/host-options.js";
import { readTarget } from "../../src/pipeline/normalize.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";
import { ruleFromText } from "../../src/pipeline/rule-text-lane.js";
import { serializedHostEnd } from "../../src/url/serialized-host.js";
import { attempt } from "../helpers/url-outcome.js";

// The rule text lane's answer for a link (undefined: refused, the wrapper is parsed), checked
// against explain() and normalize() on the way: whatever the lane does, the two agree.
function lane(input: string, options?: NormalizeOptions): string | undefined {
  assert.deepEqual(
    attempt(() => normalize(input, options)),
    attempt(() => explain(input, options).canonical),
    `normalize vs explain of ${input}`,
  );
  const hostEnd = serializedHostEnd(input);
  const resolved = resolveNormalizeOptions(options);
  const lookup = ruleLookup(resolved.rules);
  const hostname = input.slice(input.charCodeAt(4) === 0x3a ? 7 : 8, hostEnd);
  return ruleFromText(
    input,
    hostEnd,
    hostname,
    resolved,
    lookup,
    hostFacts(resolved, lookup, hostname),
    readTarget,
  );
}

describe("the rule text lane unwraps on the text", () => {
  it("gives a wrapper's target its own key, one level deep", () => {
    const input = "https://www.google.com/url?sa=t&q=https%3A%2F%2Fyoutu.be%2Fabc%3Fsi%3Dx&ved=1";
    assert.equal(lane(input), "https://www.youtube.com/watch?v=abc");
    assert.equal(explain(input).canonical, "https://www.youtube.com/watch?v=abc");
  });

  it("refuses a parameter given twice: the generic pass's sort picks the first by value", () => {
    const input = "https://www.google.com/url?q=https%3A%2F%2Fb.example%2F&q=https%3A%2F%2Fa.example%2F";
    assert.equal(explain(input).canonical, "https://a.example/");
    assert.equal(lane(input), undefined);
  });

  it("reads no parameter the host's tracking pass drops, and goes on to the next form", () => {
    const input = "https://www.google.com/url?q=https%3A%2F%2Fa.example%2F&url=https%3A%2F%2Fb.example%2F";
    assert.equal(lane(input), "https://a.example/");
    const options = { extraTrackingParams: ["q"] };
    assert.equal(explain(input, options).canonical, "https://b.example/");
    assert.equal(lane(input, options), "https://b.example/");
  });

  it("refuses a path form's query, which the pipeline filters and sorts onto the target", () => {
    const input = "https://web.archive.org/web/20240101000000/https://a.example/x?utm_source=y&b=1&a=2";
    assert.equal(explain(input).canonical, "https://a.example/x?a=2&b=1");
    assert.equal(lane(input), undefined);
    assert.equal(
      lane("https://web.archive.org/web/20240101000000/https://a.example/x/"),
      "https://a.example/x",
    );
  });

  it("puts a sameHost path on the wrapper's host, but not one a tab turns scheme-relative", () => {
    const path = "https://www.youtube.com/attribution_link?a=x&u=%2Fwatch%3Fv%3Dabc%26feature%3Dshare";
    assert.equal(lane(path), "https://www.youtube.com/watch?v=abc");
    // The parser removes the tab first: "//evil.example/x" names another host.
    const tab = "https://www.youtube.com/attribution_link?u=%2F%09%2Fevil.example%2Fx";
    assert.equal(explain(tab).canonical, "https://evil.example/x");
    assert.equal(lane(tab), undefined);
  });

  it("refuses a target with white space at an end, which parseInput would trim and the parser not", () => {
    const input = "https://www.google.com/url?q=https%3A%2F%2Fa.example%2Fx%C2%A0";
    assert.equal(explain(input).canonical, "https://a.example/x%C2%A0");
    assert.equal(lane(input), undefined);
  });

  it("refuses a target whose href may pass the length bound, where the pipeline throws", () => {
    // 30,000 "+" decode to spaces, each "%20" in the parsed target: 90,000 characters.
    const input = `https://www.google.com/url?q=https://a.example/?x=${"+".repeat(30_000)}y`;
    assert.deepEqual(
      attempt(() => explain(input).canonical),
      { ok: false, code: "invalid-url" },
    );
    assert.equal(lane(input), undefined);
  });

  it("leaves a wrapper inside a wrapper to the pipeline, which counts the depth", () => {
    const inner = `https://vk.com/away.php?to=${encodeURIComponent("https://a.example/")}`;
    const input = `https://www.google.com/url?q=${encodeURIComponent(inner)}`;
    assert.equal(explain(input).steps.filter((s) => s.stage === "parse").length, 3);
    assert.equal(lane(input), undefined);
  });

  it("lets a wrapper path without a target fall through to the next rule", () => {
    const input = "https://www.google.com/url?sa=t&utm_source=x";
    assert.equal(explain(input).ruleApplied, null);
    assert.equal(lane(input), "https://www.google.com/url?sa=t");
  });
});

describe("the rule text lane keeps the fragments a rule keeps", () => {
  const blob = "https://github.com/NodeJS/Node/blob/main/lib/url.js";

  it("keeps GitHub's line fragment on a file, after the query", () => {
    assert.equal(lane(`${blob}#L10-L20`), "https://github.com/nodejs/node/blob/main/lib/url.js#L10-L20");
    assert.equal(
      lane(`${blob}?plain=1&utm_source=x#L10`),
      "https://github.com/nodejs/node/blob/main/lib/url.js?plain=1#L10",
    );
  });

  it("drops one the rule does not keep there, or past the length bound", () => {
    assert.equal(lane(`${blob}#top`), "https://github.com/nodejs/node/blob/main/lib/url.js");
    assert.equal(lane("https://github.com/o/r/tree/main/src#L10"), "https://github.com/o/r/tree/main/src");
    const long = `#L${"1".repeat(300)}`;
    assert.equal(explain(`${blob}${long}`).canonical.includes("#"), false);
    assert.equal(lane(`${blob}${long}`), "https://github.com/nodejs/node/blob/main/lib/url.js");
  });

  it("refuses a fragment the parser would change", () => {
    for (const hash of ["#L1 0", "#L\u00e9", "#L1<"]) assert.equal(lane(`${blob}${hash}`), undefined, hash);
  });

  // The rule tests the fragment the generic pass leaves: escapes normalized first (%4C is "L").
  it("tests a fragment with escapes as the generic pass leaves it, as the pipeline does", () => {
    const cases: [string, string][] = [
      ["#%4C10", "https://github.com/nodejs/node/blob/main/lib/url.js#L10"],
      ["#L1%20", "https://github.com/nodejs/node/blob/main/lib/url.js"],
    ];
    for (const [hash, want] of cases) {
      const input = `${blob}${hash}`;
      assert.equal(explain(input).canonical, want, `explain ${hash}`);
      assert.equal(lane(input), want, `lane ${hash}`);
    }
  });
});
