import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compilePathPattern, matchPathPattern } from "../../src/rules/path-pattern.js";

// Every shape a pattern can take, and 100 KB paths built to make a backtracking matcher try every
// placement of its captures. With the regex matcher, "/{a}-{b}-{c}.html" against 8 KB of "-" took
// 172 s; the timeout is only a hang guard, the assertions pin the answers.
const SHAPES = [
  "/watch",
  "/embed/{id}",
  "/{user}/status/{id}",
  "/item/{id}.html",
  "/{slug}-{id}.html",
  "/{a}-{b}-{c}.html",
  "/{a}-{b}-{c}-{d}-{e}",
  "/x/{a}--{b}/",
  "/dp/{asin}/{rest*}",
  "/{rest*}",
];
const SIZE = 100_000;
const HOSTILE = [
  `/${"-".repeat(SIZE)}`,
  `/${"-".repeat(SIZE)}.htm`,
  `/${"a-".repeat(SIZE / 2)}`,
  `/${"a-".repeat(SIZE / 2)}.html`,
  `/${"--".repeat(SIZE / 2)}x`,
  "/a".repeat(SIZE / 2),
  `/x/${"-".repeat(SIZE)}/`,
  `/${"/".repeat(SIZE)}`,
  `/dp/${".".repeat(SIZE)}`,
];

function compiled(text: string) {
  const p = compilePathPattern(text);
  if (!p.ok) throw new Error(p.message);
  return p.value;
}

describe("path patterns against hostile paths", () => {
  it("every shape answers a 100 KB hostile path (hang guard)", { timeout: 10_000 }, () => {
    let answered = 0;
    for (const shape of SHAPES) {
      const p = compiled(shape);
      for (const path of HOSTILE) {
        matchPathPattern(p, path);
        answered++;
      }
    }
    assert.equal(answered, SHAPES.length * HOSTILE.length);
  });

  it("places several captures in a segment greedily, as the regex did", { timeout: 10_000 }, () => {
    const three = compiled("/{a}-{b}-{c}.html");
    // No ".html": no placement fits, and the matcher must say so without trying them all.
    assert.equal(matchPathPattern(three, `/${"-".repeat(SIZE)}`), undefined);
    const dashes = "-".repeat(SIZE);
    // Greedy: the first captures take all they can, the later ones one character each.
    assert.deepEqual(matchPathPattern(three, `/${dashes}.html`), ["-".repeat(SIZE - 4), "-", "-"]);
    const two = compiled("/{slug}-{id}.html");
    assert.deepEqual(matchPathPattern(two, `/${"a-".repeat(SIZE / 2)}1.html`), [
      `${"a-".repeat(SIZE / 2 - 1)}a`,
      "1",
    ]);
    // The last "-" leaves no id before ".html": the one before it is taken.
    assert.deepEqual(matchPathPattern(two, `/${"a-".repeat(SIZE / 2)}.html`), [
      `${"a-".repeat(SIZE / 2 - 2)}a`,
      "a-",
    ]);
    assert.equal(matchPathPattern(two, `/${"-".repeat(SIZE)}.htm`), undefined);
  });

  it("a rest capture takes a 100 KB remainder whole", { timeout: 10_000 }, () => {
    const rest = compiled("/dp/{asin}/{rest*}");
    const tail = "x/".repeat(SIZE / 2);
    assert.deepEqual(matchPathPattern(rest, `/dp/B0/${tail}`), ["B0", tail]);
  });
});
