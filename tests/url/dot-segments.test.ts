import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { removeDotSegments } from "../../src/url/dot-segments.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";

// RFC 3986 §5.2.4 on "/"-separated segments, written plainly: "." goes, ".." takes the segment
// before it, and a final "." or ".." leaves a trailing slash (the WHATWG reading).
function reference(path: string): string {
  const out: string[] = [];
  const segments = path.slice(1).split("/");
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === "." || segment === "..") {
      if (segment === "..") out.pop();
      if (last) out.push("");
    } else out.push(segment);
  });
  return `/${out.join("/")}`;
}

const segment = fc.constantFrom(".", "..", "", "a", "bc", ".x", "..y", "%2e", "...", "a.");

describe("removeDotSegments", () => {
  it("answers as RFC 3986 §5.2.4 on hostile paths, and returns an unchanged path itself", () => {
    const reached = { changed: 0, unchanged: 0, emptied: 0, severalRuns: 0 };
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), (segments) => {
        const path = `/${segments.join("/")}`;
        const out = removeDotSegments(path);
        assert.equal(out, reference(path), JSON.stringify(path));
        if (out === path) {
          // Not rebuilt: the same string, when nothing changes.
          assert.ok(!segments.includes(".") && !segments.includes(".."), JSON.stringify(path));
          reached.unchanged++;
        } else reached.changed++;
        if (out === "/") reached.emptied++;
        if (out.split("/").length > 3 && segments.some((s) => s === "." || s === "..")) reached.severalRuns++;
      }),
      { seed: 20261205, numRuns: fuzzRuns(3000) },
    );
    for (const [branch, count] of Object.entries(reached)) assert.ok(count > 100, `${branch}: only ${count}`);
  });

  it("keeps a trailing slash for a final dot segment, and a path without dots as it is", () => {
    assert.equal(removeDotSegments("/a/b/.."), "/a/");
    assert.equal(removeDotSegments("/a/.x/b/../c"), "/a/.x/c");
    assert.equal(removeDotSegments("/../../x"), "/x");
    const plain = "/a/b/c";
    assert.equal(removeDotSegments(plain), plain);
  });

  it("answers alike for paths of thousands of segments, before and after one (the reused offsets)", () => {
    const long = `/${Array.from({ length: 3000 }, (_, i) => (i % 7 === 3 ? ".." : i % 11 === 5 ? "." : `s${i}`)).join("/")}`;
    assert.equal(removeDotSegments(long), reference(long));
    assert.equal(removeDotSegments("/a/b/../c/./d"), "/a/c/d");
    assert.equal(removeDotSegments(long), reference(long));
  });
});
