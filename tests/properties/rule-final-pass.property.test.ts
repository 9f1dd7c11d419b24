import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { explain, normalize } from "../../src/index.js";
import { compileRules } from "../../src/rules/compile-rules.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";

const SEED = 20261205;
const RUNS = fuzzRuns(3000);

// normalize()'s final pass after a declarative rewrite asks the tracking matcher only about the
// pairs the rewrite set, when it is the matcher the generic pass filtered the handed pairs with,
// and keeps the rewrite's query text when nothing goes or moves. explain() lists the names
// stripped, so it takes the full pass (every pair asked, the query joined again): it is the
// oracle. The rules below set tracking and ordinary pairs, move the host to one whose tracking
// options differ (an exemption on the input's host only), and keep or drop the input's pairs.
const rules = compileRules([
  {
    name: "sets-v1",
    domains: ["set.test"],
    keepParams: ["a", "b", "utm_source"],
    pathPatterns: [
      { match: "/a/{id}", rewrite: "/a?utm_source={id}&v={id}" },
      { match: "/b/{id}", rewrite: "/b?z={id}" },
      { match: "/c", rewrite: "/c" },
    ],
  },
  {
    name: "moves-v1",
    domains: ["move.test"],
    canonicalHost: "kept.test",
    pathPatterns: [
      { match: "/a/{id}", rewrite: "/a/{id}" },
      { match: "/c", rewrite: "/c?v=1" },
    ],
  },
  // On the input's host only: the generic pass keeps these there, the final pass on kept.test not.
  { name: "exempts-move-v1", domains: ["move.test"], exemptParams: ["utm_source", "fbclid"] },
  { name: "exempts-v1", domains: ["set.test"], exemptParams: ["fbclid"] },
]);

const link = fc
  .tuple(
    fc.constantFrom("set.test", "move.test", "kept.test"),
    fc.constantFrom("/a/x1", "/a/utm", "/b/x2", "/c", "/c/", "/d"),
    fc.array(fc.constantFrom("utm_source=1", "fbclid=2", "v=3", "z=4", "b=5", "a", "a=0", "gclid=9", "b=1"), {
      maxLength: 5,
    }),
  )
  .map(([host, path, pairs]) => `https://${host}${path}${pairs.length > 0 ? `?${pairs.join("&")}` : ""}`);
const extra = fc.constantFrom<string[] | undefined>(undefined, undefined, ["v"], ["z", "a"]);

describe("the final pass after a declarative rewrite (fast-check, fixed seed)", () => {
  it("gives what the full pass gives", () => {
    let setTracking = 0;
    let moved = 0;
    let kept = 0;
    let changed = 0;
    fc.assert(
      fc.property(link, extra, (input, extraTrackingParams) => {
        const options = { rules, ...(extraTrackingParams === undefined ? {} : { extraTrackingParams }) };
        const full = explain(input, options);
        assert.equal(normalize(input, options), full.canonical, input);
        if (full.ruleApplied === null) return;
        const rule = full.steps.find((s) => s.stage === "rule")?.url ?? "";
        if (new URL(rule).hostname !== new URL(input).hostname) moved++;
        // A pair the rewrite set that the final pass removes (utm_source, or v with it tracked).
        else if (/[?&](utm_source|v)=/.test(rule) && !/[?&](utm_source|v)=/.test(full.canonical))
          setTracking++;
        if (rule.includes("?") && full.canonical.endsWith(rule.slice(rule.indexOf("?")))) kept++;
        else if (rule.includes("?")) changed++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(setTracking > RUNS / 50, `only ${setTracking} set pairs removed`);
    assert.ok(moved > RUNS / 20, `only ${moved} moved hosts`);
    assert.ok(kept > RUNS / 20, `only ${kept} rewrites kept their query`);
    assert.ok(changed > RUNS / 20, `only ${changed} rewrites lost or reordered pairs`);
  });
});
