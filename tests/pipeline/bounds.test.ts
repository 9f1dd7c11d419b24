import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explain, isUrlError, loadRules, type NormalizeOptions, normalize } from "../../src/index.js";
import { DeclaredRule } from "../../src/rules/declared-rule.js";
import type { DomainRule } from "../../src/rules/domain-rule.js";
import { MAX_URL_LENGTH } from "../../src/url/max-url-length.js";

const PRESETS: NormalizeOptions[] = [{}, { preset: "rfc3986" }];

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(isUrlError(error), `expected a UrlError, got ${String(error)}`);
    assert.equal(error.code, "invalid-url");
    return error.message;
  }
  assert.fail("expected invalid-url");
}

// normalize() and explain() both refuse `input` for a key the normalization grew past the bound.
function refusedGrown(input: string): void {
  assert.match(
    refusal(() => normalize(input)),
    /the normalized URL is \d+ characters/,
  );
  assert.match(
    refusal(() => explain(input)),
    /the normalized URL is \d+ characters/,
  );
}

describe("idempotence outside the rule engine (found by fuzzing, about 1 in 25,000 inputs)", () => {
  it("dot segments next to a segment the encoder rewrites are resolved in the same pass", () => {
    const input = "https://www.re.COM:80/a/.[::1]/b/../c/";
    assert.equal(normalize(input), "https://www.re.com:80/a/.%5B::1%5D/c");
    assert.equal(normalize(input, { preset: "rfc3986" }), "https://www.re.com:80/a/.%5B::1%5D/c/");
    for (const options of PRESETS) {
      const once = normalize(input, options);
      assert.equal(normalize(once, options), once, JSON.stringify(options));
    }
  });

  it("encoded dots in a numeric host stay in it, so the next parse does not read an IPv4 address", () => {
    const input = "http://2130706433%2E%2E/";
    for (const options of PRESETS) {
      const once = normalize(input, options);
      assert.equal(once, "http://2130706433../");
      assert.equal(normalize(once, options), once);
    }
    // The number alone is an address, and is written as one.
    assert.equal(normalize("http://2130706433/"), "http://127.0.0.1/");
  });
});

describe(`no input and no rule makes a canonical URL longer than ${MAX_URL_LENGTH} characters`, () => {
  it("the input bound: the longest accepted input, and one more character refused", () => {
    const base = "https://x.test/";
    const longest = base + "a".repeat(MAX_URL_LENGTH - base.length);
    assert.equal(normalize(longest).length, MAX_URL_LENGTH);
    assert.match(
      refusal(() => normalize(`${longest}a`)),
      /the input is 65537 characters, over the limit of 65536/,
    );
  });

  // The fast path keeps a route fragment itself, encoded as the generic pass encodes it: a kept
  // fragment that the encoding grows past the bound must be refused as the pipeline refuses it.
  it("a kept route fragment that encoding grows past the bound is refused, on the fast path too", () => {
    const input = `https://x.test/#/${"|".repeat(30_000)}`;
    assert.ok(input.length < MAX_URL_LENGTH);
    const fits = `https://x.test/#/${"|".repeat(20_000)}`;
    assert.equal(normalize(fits), `https://x.test/#/${"%7C".repeat(20_000)}`);
    refusedGrown(input);
  });

  // The fast path reads a respelled authority's link in place, the key's head written apart: the
  // bound is on the link as written (punycode is longer than the host as typed), not on the text.
  it("a host the key spells longer (an IDN in punycode) is refused past the bound, on the fast path too", () => {
    const host = `${"ü.".repeat(100)}test`;
    const base = `https://${host}/`;
    const input = base + "a".repeat(MAX_URL_LENGTH - base.length);
    assert.equal(input.length, MAX_URL_LENGTH);
    const written = new URL(`https://${host}/`).href;
    assert.ok(written.length > base.length);
    refusedGrown(input);
    // Short of the bound by the growth, the same link is read and written whole.
    const fits = input.slice(0, MAX_URL_LENGTH - (written.length - base.length));
    assert.equal(normalize(fits), written + fits.slice(base.length));
  });

  it("a parse that expands the input past the bound is refused too (each byte of é becomes %XX)", () => {
    const input = `https://x.test/${"é".repeat(30_000)}`;
    assert.ok(input.length < MAX_URL_LENGTH);
    assert.match(
      refusal(() => normalize(input)),
      /the normalized URL is \d+ characters/,
    );
  });

  it("a target repeating its capture 8 times on a 1 KB input is refused, not grown to 32 MB", () => {
    // Built directly: loadRules refuses this rule (tests/rules/convergence.test.ts); a hand-made
    // DeclaredRule still meets the bound at run time.
    const sg = new DeclaredRule({
      name: "sg-v1",
      domains: ["sg.test"],
      unwrap: [{ path: "/{t*}", target: "https://sg.test/{t}/{t}/{t}/{t}/{t}/{t}/{t}/{t}" }],
    });
    const input = `https://sg.test/${"a".repeat(1024)}`;
    const message = refusal(() => normalize(input, { rules: [sg] }));
    assert.match(message, /a rule's filled template is \d+ characters, over the limit of 65536/);
    // The same fails the same way every time: the refusal is the fixed point.
    assert.equal(
      refusal(() => normalize(input, { rules: [sg] })),
      message,
    );
  });

  it("a one-shot repeat stays under the bound on 1 KB and is refused on 9 KB", () => {
    const [x8] = loadRules(`
- name: x8-v1
  domains: [x8.test]
  unwrap:
    - { path: "/{t*}", target: "https://dest.test/{t}/{t}/{t}/{t}/{t}/{t}/{t}/{t}" }
`);
    assert.ok(x8);
    const small = normalize(`https://x8.test/${"a".repeat(1024)}`, { rules: [x8] });
    assert.ok(
      small.startsWith("https://dest.test/") && small.length === "https://dest.test/".length + 8 * 1024 + 7,
      String(small.length),
    );
    refusal(() => normalize(`https://x8.test/${"a".repeat(9 * 1024)}`, { rules: [x8] }));
  });

  it("two rules from two documents that unwrap into each other: refused after the unwrap depth, small or large", () => {
    // Each document settles alone (the other host is nobody's), so both load; together they loop.
    const a = loadRules(
      `[{ name: a-v1, domains: [a.test], unwrap: [{ path: "/{t*}", target: "https://b.test/{t}/{t}" }] }]`,
    );
    const b = loadRules(
      `[{ name: b-v1, domains: [b.test], unwrap: [{ path: "/{t*}", target: "https://a.test/{t}/{t}" }] }]`,
    );
    const rules = [...a, ...b];
    // Past the unwrap depth, or past the length bound on the way: refused either way, every time.
    assert.match(
      refusal(() => normalize("https://a.test/x", { rules })),
      /deep|over the limit of 65536/,
    );
    assert.match(
      refusal(() => normalize(`https://a.test/${"a".repeat(1024)}`, { rules })),
      /deep|over the limit of 65536/,
    );
  });

  it("a hand-written rule whose output grows is refused after it runs", () => {
    const grow: DomainRule = {
      name: "grow",
      match: (url) => url.hostname === "g.test",
      apply: (url) => new URL(`https://g.test/${url.pathname.repeat(64)}`),
    };
    assert.match(
      refusal(() => normalize(`https://g.test/${"a".repeat(2048)}`, { rules: [grow] })),
      /the output of rule "grow" is \d+ characters/,
    );
    assert.ok(normalize("https://g.test/a", { rules: [grow] }).length < 300);
  });
});
