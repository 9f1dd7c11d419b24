import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { isUrlError, type NormalizeOptions, normalize } from "../../src/index.js";

// normalize(normalize(x)) === normalize(x) over the two corners where it used to fail: hosts with
// trailing dots whose labels look like numbers (127.1.., a.1..), and wrappers nested to any depth.
// `FUZZ_RUNS` raises the run count for a long session; the seed stays fixed.

const SEED = 20261204;
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const MAX_UNWRAPS = 8;

type Outcome = { ok: true; value: string } | { ok: false; message: string };

function attempt(input: string, options?: NormalizeOptions): Outcome {
  try {
    return { ok: true, value: normalize(input, options) };
  } catch (error) {
    if (isUrlError(error) && error.code === "invalid-url") return { ok: false, message: error.message };
    throw error;
  }
}

// Labels the WHATWG "ends in a number" check reads as numbers (decimal, octal-looking, hex, bare
// 0x), near-numbers that are names, and ordinary names.
const label = fc.constantFrom(
  ...["1", "127", "0", "09", "255", "256", "4294967295", "0x", "0x1F", "0X7f", "0x1g", "1x", "x1"],
  ...["a", "example", "com", "www", "xn--mnchen-3ya", "A-B", "%41", "%2e"],
);
const dotted = fc
  .tuple(
    fc.constantFrom("", "", "", "."),
    fc.array(label, { minLength: 1, maxLength: 5 }),
    fc.nat({ max: 4 }),
  )
  .map(([lead, labels, trailing]) => `${lead}${labels.join(".")}${".".repeat(trailing)}`);
const hostUrl = fc
  .tuple(
    fc.constantFrom("http://", "https://", "HTTP://", "", "//"),
    dotted,
    fc.constantFrom("", ":80", ":8080"),
    fc.constantFrom("", "/", "/a/b/", "/x?y=1&utm_source=z", "/p#f"),
  )
  .map(([scheme, host, port, rest]) => `${scheme}${host}${port}${rest}`);

describe("fixed points over hostile hosts (fast-check, fixed seed)", () => {
  it("trailing dots and IP-like labels: every result is its own normalization, in both presets", () => {
    const seen = { keptDots: 0, strippedDots: 0, becameAddress: 0, refused: 0, presets: new Set<string>() };
    fc.assert(
      fc.property(hostUrl, fc.constantFrom<NormalizeOptions>({}, { preset: "rfc3986" }), (input, options) => {
        const once = attempt(input, options);
        if (!once.ok) {
          seen.refused++;
          return;
        }
        seen.presets.add(options.preset ?? "identity");
        const host = new URL(once.value).hostname;
        const inputHadTrailing = /\.(?=[:/?#]|$)/.test(input.replace(/^[a-zA-Z]*:?\/\//, ""));
        if (options.preset === undefined && inputHadTrailing) {
          if (host.endsWith(".")) seen.keptDots++;
          else seen.strippedDots++;
        }
        if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) seen.becameAddress++;
        const twice = attempt(once.value, options);
        assert.ok(twice.ok, `${input} → ${once.value} is refused on the second pass`);
        assert.equal(twice.value, once.value, `${input}`);
        // The identity preset keeps a trailing dot only where stripping it would change the host.
        if (options.preset === undefined && host.endsWith(".") && host.replace(/\.+$/, "") !== "")
          assert.match(host.replace(/\.+$/, ""), /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/, `${input} → ${once.value}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    console.log(`hosts: ${JSON.stringify({ ...seen, presets: [...seen.presets] })}`);
    assert.ok(seen.keptDots > RUNS / 50, `dots kept on a numeric last label: ${seen.keptDots}`);
    assert.ok(seen.strippedDots > RUNS / 50, `dots stripped from a name: ${seen.strippedDots}`);
    assert.ok(seen.becameAddress > RUNS / 50, `IPv4 addresses read: ${seen.becameAddress}`);
    assert.ok(seen.refused > 0, "some hosts are refused");
    assert.equal(seen.presets.size, 2);
  });
});

// Wrappers: Google's redirect on a few of its country domains, Facebook's shim, the Wayback
// Machine (target unencoded in the path) and Google AMP (target in the path, without scheme).
const wrappers = {
  google: (t: string, host: string) => `https://${host}/url?q=${encodeURIComponent(t)}`,
  googleRaw: (t: string, host: string) => `https://${host}/url?q=${t}`,
  facebook: (t: string) => `https://l.facebook.com/l.php?u=${encodeURIComponent(t)}&h=AT0`,
  wayback: (t: string) => `https://web.archive.org/web/20200101000000/${t}`,
  amp: (t: string) => `https://www.google.com/amp/s/${t.replace(/^https:\/\//, "")}`,
} as const;
type Kind = keyof typeof wrappers;
const googleHost = fc.constantFrom("www.google.com", "google.de", "www.google.co.uk", "WWW.Google.FR");
const target = fc.constantFrom(
  ...["https://example.com/a?utm_source=x&id=7", "https://youtu.be/dQw4w9WgXcQ?si=x", "http://127.1.."],
  ...[
    "https://www.amazon.de/-/en/Echo/dp/B07PHPXHQS/ref=sr_1",
    "https://example.com..",
    "https://a.test/p#x",
  ],
  ...["https://www.google.com/search?q=x", "https://twitter.com/jack/status/20?s=20", "http://a.1../x"],
);
// Encoded wrappers carry any target intact; the unencoded ones may cut it at a "&" or "#".
const faithful: readonly Kind[] = ["google", "facebook"];
const chain = fc.record({
  target,
  layers: fc.array(
    fc.tuple(fc.constantFrom<Kind>("google", "googleRaw", "facebook", "wayback", "amp"), googleHost),
    {
      maxLength: 30,
    },
  ),
});

describe("fixed points over nested wrappers (fast-check, fixed seed)", () => {
  it("any depth: a fixed point, or invalid-url past the limit; a faithful chain unwraps to its target's key", () => {
    const seen = { faithfulEqual: 0, deepRefused: 0, deepest: 0, mixed: 0, fixed: 0 };
    fc.assert(
      fc.property(chain, ({ target: inner, layers }) => {
        let url = inner;
        for (const [kind, host] of layers) url = wrappers[kind](url, host);
        const once = attempt(url);
        if (!once.ok) {
          // Only a chain deeper than the limit may be refused, and it says so.
          assert.ok(layers.length > MAX_UNWRAPS, `${layers.length} layers refused: ${once.message}`);
          assert.match(once.message, /links wrapped in links more than 8 deep/);
          seen.deepRefused++;
          return;
        }
        seen.deepest = Math.max(seen.deepest, layers.length);
        if (new Set(layers.map(([k]) => k)).size > 1) seen.mixed++;
        assert.equal(normalize(once.value), once.value, `${layers.length} layers: ${url}`);
        seen.fixed++;
        if (layers.every(([k]) => faithful.includes(k))) {
          assert.equal(once.value, normalize(inner), `${layers.length} layers of ${inner}`);
          seen.faithfulEqual++;
        }
      }),
      { seed: SEED, numRuns: Math.max(200, Math.round(RUNS / 4)) },
    );
    console.log(`wrappers: ${JSON.stringify(seen)}`);
    assert.ok(seen.deepRefused > 0, "chains past the limit are reached");
    assert.ok(seen.faithfulEqual > 0, "faithful chains are reached");
    assert.ok(seen.mixed > 0, "mixed chains are reached");
    assert.ok(seen.deepest >= 6, `the deepest accepted chain had ${seen.deepest} layers`);
  });

  it("every depth from 0 to 30 of one faithful chain: the target's key up to 8, invalid-url after", () => {
    const inner = "https://example.com/a?utm_source=x&id=7";
    let url = inner;
    for (let depth = 0; depth <= 30; depth++) {
      const once = attempt(url);
      if (depth <= MAX_UNWRAPS)
        assert.deepEqual(once, { ok: true, value: normalize(inner) }, `depth ${depth}`);
      else assert.ok(!once.ok && /more than 8 deep/.test(once.message), `depth ${depth}`);
      url = depth % 3 === 0 ? wrappers.facebook(url) : wrappers.google(url, "google.de");
    }
  });
});
