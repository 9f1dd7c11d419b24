import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { explain, isUrlError, type NormalizeOptions, normalize } from "../../src/index.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { hostileUrl, nestedWrappers, urlish, urlWithParams } from "../helpers/url-arbitraries.js";

const SEED = 20261202;
const RUNS = fuzzRuns(3000);
const PRESETS: NormalizeOptions[] = [
  {},
  { preset: "rfc3986" },
  { trailingSlash: "add" },
  { stripFragment: false },
];

function tryNormalize(input: string, options: NormalizeOptions): string | undefined {
  try {
    return normalize(input, options);
  } catch (error) {
    if (isUrlError(error)) return undefined;
    throw error;
  }
}

describe("normalize properties (fast-check, fixed seed)", () => {
  it("is idempotent for every preset", () => {
    let normalized = 0;
    let changed = 0;
    fc.assert(
      fc.property(urlish, fc.constantFrom(...PRESETS), (input, options) => {
        const once = tryNormalize(input, options);
        if (once === undefined) return;
        normalized++;
        if (once !== input) changed++;
        assert.equal(normalize(once, options), once);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(normalized > RUNS / 2, `only ${normalized} inputs normalized`);
    assert.ok(changed > RUNS / 4, "the generator must produce inputs that normalization changes");
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(urlish, (input) => {
        assert.equal(tryNormalize(input, {}), tryNormalize(input, {}));
      }),
      { seed: SEED, numRuns: fuzzRuns(500) },
    );
  });

  it("parameter order never matters (identity)", () => {
    let reordered = 0;
    let stripped = 0;
    fc.assert(
      fc.property(urlWithParams, fc.nat(), (u, k) => {
        const shuffled = [...u.params].sort(
          (a, b) => ((a.length * 31 + k) % 7) - ((b.length * 31 + k) % 7) || (a < b ? 1 : -1),
        );
        const one = tryNormalize(`${u.base}?${u.params.join("&")}`, {});
        const two = tryNormalize(`${u.base}?${shuffled.join("&")}`, {});
        if (shuffled.join("&") !== u.params.join("&")) reordered++;
        if (one !== undefined && explain(`${u.base}?${u.params.join("&")}`).paramsStripped.length > 0)
          stripped++;
        assert.equal(one, two);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(reordered > RUNS / 4, "the shuffle must actually reorder");
    assert.ok(stripped > 0, "tracking stripping must be exercised");
  });

  it("is total: any string gives a string or a UrlError, never another exception", () => {
    let errors = 0;
    let ok = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary", maxLength: 60 }), urlish, fc.string({ unit: "grapheme-ascii" })),
        (input) => {
          for (const options of PRESETS) {
            try {
              assert.equal(typeof normalize(input, options), "string");
              ok++;
            } catch (error) {
              assert.ok(isUrlError(error), `not a UrlError: ${String(error)}`);
              errors++;
            }
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(errors > 0 && ok > 0, `both outcomes must be reached (ok ${ok}, errors ${errors})`);
  });

  it("is idempotent on hostile corners: numeric and escaped hosts, trailing dots, brackets and dots in paths", () => {
    const reached = {
      normalized: 0,
      refused: 0,
      escapedHostDot: 0,
      numericHostToAddress: 0,
      trailingHostDot: 0,
      ipv6: 0,
      bracketInPath: 0,
      dotSegmentBesideBracket: 0,
    };
    const hostOf = (u: string) => /^(?:[A-Za-z]+:\/\/)?(\[[^\]]*\]|[^/?#:]*)/.exec(u)?.[1] ?? "";
    fc.assert(
      fc.property(hostileUrl, fc.constantFrom(...PRESETS), (input, options) => {
        const once = tryNormalize(input, options);
        if (once === undefined) {
          reached.refused++;
          return;
        }
        reached.normalized++;
        assert.equal(normalize(once, options), once, `input ${JSON.stringify(input)}`);
        const host = hostOf(input);
        const out = new URL(once).hostname;
        if (/%2e/i.test(host)) reached.escapedHostDot++;
        if (/^\d+\.\d+\.\d+\.\d+$/.test(out) && out !== host) reached.numericHostToAddress++;
        if (/(\.|%2e)$/i.test(host)) reached.trailingHostDot++;
        if (out.startsWith("[")) reached.ipv6++;
        const path = input.slice(input.indexOf(host) + host.length);
        if (/[[\]]|%5b|%5d/i.test(path)) reached.bracketInPath++;
        if (/\/\.\.?(\/|$)/.test(path) && /[[\]]/.test(path)) reached.dotSegmentBesideBracket++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 100, `${branch}: only ${count} of ${RUNS} runs reached it`);
  });

  it("is idempotent through wrappers nested to any depth, and refuses the deepest the same way every time", () => {
    let unwrappedTwice = 0;
    let refusedDeep = 0;
    let deepest = 0;
    fc.assert(
      fc.property(nestedWrappers, ({ url, depth }) => {
        const once = tryNormalize(url, {});
        if (once === undefined) {
          if (depth >= 5) refusedDeep++;
          // A refusal is a fixed point only if it is one every time.
          assert.equal(tryNormalize(url, {}), undefined);
          return;
        }
        assert.equal(normalize(once, {}), once, `input ${url}`);
        if (
          depth >= 2 &&
          !/^https:\/\/(www\.google\.com|google\.com|l\.facebook\.com|web\.archive\.org)\//.test(once)
        ) {
          unwrappedTwice++;
          deepest = Math.max(deepest, depth);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(unwrappedTwice > RUNS / 20, `nested wrappers peeled in only ${unwrappedTwice} runs`);
    assert.ok(deepest >= 4, `the deepest peeled nesting was ${deepest}`);
    assert.ok(refusedDeep > 0, "a nesting past the unwrap depth must be reached and refused");
  });
});
