import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compilePathPattern, matchPathPattern } from "../../src/rules/path-pattern.js";

// Every shape a pattern can take, and 100 KB paths built to make a backtracking matcher try every
// placement of its captures. With the regex matcher, "/{a}-{b}-{c}.html" against 8 KB of "-" took
// 172 s; the timeout is only a hang guard, the assertions pin the answers.
const SHAPES = [
  "/watch",
  "/p-{id}",
  "/p-{id}.html",
  "/{a}.{b}/{c}.{d}/{e}.{f}",
  "/{a}-{b}/{rest*}",
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

  it("does a number of string operations that depends on the pattern, not on the path (no backtracking)", () => {
    // Every string primitive the matcher may call is counted; each is one linear native scan. The
    // same hostile path at 1 KB and at 100 KB must cost the same number of them, and no regular
    // expression may run. A backtracking matcher (the regex it replaced, or a loop over
    // placements) fails one or the other.
    const methods = [
      "indexOf",
      "lastIndexOf",
      "startsWith",
      "endsWith",
      "slice",
      "charCodeAt",
      "includes",
    ] as const;
    const proto = String.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const saved = methods.map((m) => proto[m] as (...args: unknown[]) => unknown);
    const savedExec = RegExp.prototype.exec;
    let calls = 0;
    let regexRuns = 0;
    const count = (pattern: ReturnType<typeof compiled>, path: string): number => {
      calls = 0;
      regexRuns = 0;
      methods.forEach((m, i) => {
        const original = saved[i] as (...args: unknown[]) => unknown;
        proto[m] = function (this: string, ...args: unknown[]) {
          calls++;
          return original.apply(this, args);
        };
      });
      RegExp.prototype.exec = function (this: RegExp, s: string) {
        regexRuns++;
        return savedExec.call(this, s);
      };
      try {
        matchPathPattern(pattern, path);
      } finally {
        methods.forEach((m, i) => {
          proto[m] = saved[i] as (...args: unknown[]) => unknown;
        });
        RegExp.prototype.exec = savedExec;
      }
      return calls;
    };
    const scaled = (n: number): string[] => [
      `/${"-".repeat(n)}`,
      `/${"-".repeat(n)}.html`,
      `/${"a-".repeat(n / 2)}`,
      `/${"a-".repeat(n / 2)}.html`,
      `/${"--".repeat(n / 2)}x`,
      `/${"a.".repeat(n / 2)}/`,
      "/a".repeat(n / 2),
      `/x/${"-".repeat(n)}/`,
    ];
    let counted = 0;
    let most = 0;
    for (const shape of SHAPES) {
      const p = compiled(shape);
      const small = scaled(1_000);
      const large = scaled(SIZE);
      small.forEach((path, i) => {
        const few = count(p, path);
        const many = count(p, large[i] as string);
        assert.equal(regexRuns, 0, `${shape}: a regular expression ran`);
        assert.equal(many, few, `${shape} on path ${i}: ${few} operations at 1 KB, ${many} at 100 KB`);
        // Bounded by the pattern: a few per literal and capture.
        assert.ok(many <= 8 * shape.length, `${shape}: ${many} operations`);
        most = Math.max(most, many);
        counted++;
      });
    }
    assert.equal(counted, SHAPES.length * 8);
    assert.ok(most > 0, "the counting must see the matcher's calls");
  });
});
