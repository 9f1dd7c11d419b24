import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { classify, type UrlFormClass } from "../../src/classify/index.js";
import { FUZZING, fuzzRuns } from "../helpers/fuzz-runs.js";
import { anyInput, urlChar, urlish } from "./arbitraries.js";
import { factsExcept, violations } from "./invariants.js";

// FUZZ_RUNS (npm run fuzz: 1,000,000) is the long mode: that many random strings through every
// single-input law, and a fifth of it through the metamorphic ones.
const RUNS = fuzzRuns(20_000);
const META_RUNS = FUZZING ? Math.max(5_000, Math.floor(RUNS / 5)) : 5_000;

describe("classify() laws (fast-check, seed 42)", () => {
  it(`keeps every single-input law over ${RUNS} random strings`, () => {
    const seen = new Map<UrlFormClass, number>();
    let unrecoverable = 0;
    let tabs = 0;
    let backslashes = 0;
    let userinfo = 0;
    fc.assert(
      fc.property(anyInput, (raw) => {
        const form = classify(raw);
        seen.set(form.class, (seen.get(form.class) ?? 0) + 1);
        if (form.hostUnrecoverable) unrecoverable++;
        if (form.hasTabOrNewline) tabs++;
        if (form.hasBackslash) backslashes++;
        if (form.hasUserInfo) userinfo++;
        assert.deepEqual(violations(raw), [], JSON.stringify(raw));
      }),
      { seed: 42, numRuns: RUNS },
    );
    // The laws are only worth something if every class and the rarer facts were reached.
    assert.equal(seen.size, 7, `classes reached: ${JSON.stringify([...seen])}`);
    for (const [cls, n] of seen) assert.ok(n > 0, cls);
    assert.ok(unrecoverable > 0, "hostUnrecoverable never reached");
    assert.ok(tabs > 0 && backslashes > 0 && userinfo > 0);
  });

  it("changes no fact but hasTabOrNewline when tabs and newlines are inserted anywhere", () => {
    let flipped = 0;
    let nonEmpty = 0;
    fc.assert(
      fc.property(
        urlish,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom("\t", "\n", "\r", "\r\n", "\t\t")), {
          minLength: 1,
          maxLength: 4,
        }),
        (raw, inserts) => {
          let smuggled = raw;
          for (const [at, ws] of inserts) {
            const i = at % (smuggled.length + 1);
            smuggled = smuggled.slice(0, i) + ws + smuggled.slice(i);
          }
          const before = classify(raw);
          const after = classify(smuggled);
          if (before.class !== "empty") nonEmpty++;
          if (after.hasTabOrNewline && !before.hasTabOrNewline) flipped++;
          assert.deepEqual(factsExcept(after, "hasTabOrNewline"), factsExcept(before, "hasTabOrNewline"));
          if (before.hasTabOrNewline) assert.ok(after.hasTabOrNewline);
        },
      ),
      { seed: 42, numRuns: META_RUNS },
    );
    assert.ok(flipped > 0, "no insertion ever landed inside the content");
    assert.ok(nonEmpty > 0);
  });

  it("changes no fact but hasBackslash when \\ becomes / ahead of the query in \\\\host/… forms", () => {
    const lead = fc.constantFrom("\\\\", "/\\", "\\/");
    const body = fc.array(fc.oneof(urlChar, fc.constantFrom("\\", "/", "evil.test", "a@b")), {
      maxLength: 12,
    });
    let withHost = 0;
    let stillBackslash = 0;
    fc.assert(
      fc.property(lead, body, (prefix, chars) => {
        const raw = prefix + chars.join("");
        const stop = raw.search(/[?#]/);
        const head = stop === -1 ? raw : raw.slice(0, stop);
        const rewritten = head.replaceAll("\\", "/") + (stop === -1 ? "" : raw.slice(stop));
        const original = classify(raw);
        const slashed = classify(rewritten);
        if (original.host !== "") withHost++;
        if (slashed.hasBackslash) stillBackslash++;
        assert.deepEqual(
          factsExcept(slashed, "hasBackslash", "trimmed"),
          factsExcept(original, "hasBackslash", "trimmed"),
          JSON.stringify(raw),
        );
      }),
      { seed: 42, numRuns: META_RUNS },
    );
    assert.ok(withHost > 0, "no \\\\host form ever yielded a host");
    assert.ok(stillBackslash > 0, "no backslash ever sat past the query");
  });

  it("reads the same host whatever the case of the input's ASCII letters", () => {
    let hosts = 0;
    fc.assert(
      fc.property(urlish, (raw) => {
        const lower = classify(raw.replace(/[A-Z]+/g, (m) => m.toLowerCase()));
        const upper = classify(raw.replace(/[a-z]+/g, (m) => m.toUpperCase()));
        if (lower.host !== "") hosts++;
        // Hex escapes and scheme/host letters fold; the class may only change where a letter is
        // significant outside the host (never, for the ASCII-only fold), so compare the host.
        assert.equal(upper.host, lower.host, JSON.stringify(raw));
        assert.equal(upper.class, lower.class, JSON.stringify(raw));
      }),
      { seed: 42, numRuns: META_RUNS },
    );
    assert.ok(hosts > 0);
  });

  it("is total over any value, not only strings: a non-string is malformed with no facts", () => {
    let nonStrings = 0;
    let traps = 0;
    // Objects whose toString or valueOf throws: classify must not read them at all.
    const trap = fc.constant(null).map(() => {
      traps++;
      return {
        toString() {
          throw new Error("read");
        },
        [Symbol.toPrimitive]() {
          throw new Error("read");
        },
      };
    });
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), trap, fc.constantFrom(undefined, null, 42, Symbol("s"))),
        (value) => {
          const form = classify(value as string);
          if (typeof value === "string") return;
          nonStrings++;
          assert.deepEqual(form, {
            class: "malformed",
            trimmed: "",
            host: "",
            scheme: "",
            port: "",
            hasBackslash: false,
            hasTabOrNewline: false,
            hasUserInfo: false,
            hostUnrecoverable: false,
            scriptScheme: false,
          });
        },
      ),
      { seed: 42, numRuns: 5_000 },
    );
    assert.ok(nonStrings > 2_500, `only ${nonStrings} non-string values generated`);
    assert.ok(traps > 100, `only ${traps} objects that throw when read`);
  });
});
