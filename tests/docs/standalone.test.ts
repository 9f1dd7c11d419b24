import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

// The README and docs/ are read by dependents who have none of the project's internal documents:
// no contract file, no design-document section numbers, no talk of the "seed" designs the project
// started from. Standards keep their section signs (RFC 3986 §5.2.4 is something a reader can
// look up). Every relative link points at a file the repository has.

function userDocs(): string[] {
  return [
    "README.md",
    ...readdirSync(fromRoot("docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
}

// A section sign is fine after a standard's name and number (RFC 3986 §3, RFC 9111 §4.2.2, WHATWG
// URL §4.4 …); anything else (a design document's §15) is internal.
const STANDARD_BEFORE_SECTION =
  /(RFC \d+|WHATWG(?: [A-Za-z]+)*|ECMA-\d+|IETF [\w-]+|UTS #\d+|ISO [\d-]+)[,:]? $/;

function internalReferences(text: string): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (/\bapi\.md\b/.test(line)) found.push(`line ${i + 1}: api.md`);
    if (/\bseeds?\b/i.test(line)) found.push(`line ${i + 1}: "seed"`);
    for (const m of line.matchAll(/§/g)) {
      const before = line.slice(0, m.index);
      if (!STANDARD_BEFORE_SECTION.test(before))
        found.push(`line ${i + 1}: ${line.slice(Math.max(0, (m.index ?? 0) - 30), (m.index ?? 0) + 6)}`);
    }
  }
  return found;
}

describe("user docs stand alone", () => {
  const files = userDocs();

  it("covers the README and the docs", () => {
    assert.ok(files.length >= 3, files.join(", "));
  });

  for (const file of files) {
    const text = readFileSync(fromRoot(file), "utf8");
    it(`${file} cites no internal document`, () => {
      assert.deepEqual(internalReferences(text), []);
    });
    it(`${file}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const m of text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
        const target = m[1] ?? "";
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        if (!existsSync(join(dirname(fromRoot(file)), target))) broken.push(target);
      }
      assert.deepEqual(broken, []);
    });
  }

  it("the check itself catches what it is for", () => {
    assert.equal(internalReferences("The contract is api.md §4.").length, 2);
    assert.equal(internalReferences("as the seed says").length, 1);
    assert.equal(internalReferences("(link-canonical §15)").length, 1);
    assert.deepEqual(internalReferences("RFC 3986 §5.2.4 and RFC 9111 §4.2.2"), []);
  });
});
