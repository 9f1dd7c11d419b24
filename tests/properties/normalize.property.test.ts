import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { explain, isUrlError, type NormalizeOptions, normalize } from "../../src/index.js";
import { urlish, urlWithParams } from "../helpers/url-arbitraries.js";

const SEED = 20261202;
const RUNS = 3000;
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
      { seed: SEED, numRuns: 500 },
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
});
