import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explain, isUrlError, normalize } from "../../src/index.js";

// normalize(normalize(x)) === normalize(x): the counterexamples issue 14 found, each of which a
// second pass used to change.

const google = (target: string) => `https://www.google.com/url?q=${encodeURIComponent(target)}`;
const facebook = (target: string) => `https://l.facebook.com/l.php?u=${encodeURIComponent(target)}`;

function nest(target: string, depth: number, wrap: (t: string) => string = google): string {
  let url = target;
  for (let i = 0; i < depth; i++) url = wrap(url);
  return url;
}

function assertFixedPoint(input: string): string {
  const once = normalize(input);
  assert.equal(normalize(once), once, `second pass of ${input}`);
  return once;
}

describe("hosts with trailing dots keep their meaning", () => {
  it("127.1.. stays a DNS name: stripping the dots would make it the address 127.0.0.1", () => {
    // The browser reads one trailing dot as part of an IPv4 address (127.1. is 127.0.0.1) and
    // sends 127.1.. to DNS as it is.
    assert.equal(assertFixedPoint("http://127.1.."), "http://127.1../");
    assert.equal(assertFixedPoint("http://127.1."), "http://127.0.0.1/");
    assert.equal(assertFixedPoint("http://1.2.3.4../x"), "http://1.2.3.4../x");
    assert.equal(assertFixedPoint("http://a.0x1F.."), "http://a.0x1f../");
  });

  it("a.1.. stays as it is: without the dots it is a URL the parser refuses", () => {
    assert.throws(
      () => normalize("http://a.1/"),
      (e) => isUrlError(e) && e.code === "invalid-url",
    );
    assert.equal(assertFixedPoint("http://a.1.."), "http://a.1../");
    assert.equal(assertFixedPoint("http://a.09.../p"), "http://a.09.../p");
  });

  it("a name that does not end in a number still loses all its trailing dots", () => {
    assert.equal(assertFixedPoint("http://example.com../a"), "http://example.com/a");
    assert.equal(assertFixedPoint("http://a.1x.."), "http://a.1x/");
    assert.equal(assertFixedPoint("http://a.0x1g.."), "http://a.0x1g/");
    assert.equal(assertFixedPoint("http://1.2.3.4.example.."), "http://1.2.3.4.example/");
  });

  it("rfc3986 keeps trailing dots in every case (url_canonicalize's table)", () => {
    assert.equal(normalize("http://127.1..", { preset: "rfc3986" }), "http://127.1../");
    assert.equal(normalize("http://example.com..", { preset: "rfc3986" }), "http://example.com../");
  });
});

describe("wrapped links are unwrapped to a fixed point", () => {
  const target = "https://example.com/page?utm_source=x&id=7";

  it("six google.com/url?q= wrappers inside each other", () => {
    const input = nest(target, 6);
    assert.equal(assertFixedPoint(input), "https://example.com/page?id=7");
    assert.equal(explain(input).ruleApplied, "google-url-v2");
  });

  it("up to eight wrappers, mixed kinds included, and the inner rule still applies", () => {
    for (let depth = 1; depth <= 8; depth++) {
      assert.equal(assertFixedPoint(nest(target, depth)), "https://example.com/page?id=7", `depth ${depth}`);
      let mixed = "https://youtu.be/dQw4w9WgXcQ?si=abc";
      for (let i = 0; i < depth; i++) mixed = i % 2 === 0 ? google(mixed) : facebook(mixed);
      const e = explain(mixed);
      assert.equal(e.canonical, "https://www.youtube.com/watch?v=dQw4w9WgXcQ", `mixed depth ${depth}`);
      assert.equal(e.ruleApplied, "youtube-v3");
      assert.equal(normalize(e.canonical), e.canonical);
    }
  });

  it("beyond eight, a clear invalid-url rather than a key a second pass would change", () => {
    for (const depth of [9, 12, 40]) {
      const input = nest(target, depth, depth % 2 === 0 ? google : facebook);
      assert.throws(
        () => normalize(input),
        (e) =>
          isUrlError(e) &&
          e.code === "invalid-url" &&
          /links wrapped in links more than 8 deep/.test(e.message),
        `depth ${depth}`,
      );
    }
  });

  it("the work is bounded: an unencoded chain of a thousand wrappers stops after eight rounds", () => {
    // Without percent-encoding a chain grows linearly, so a long one is cheap to send.
    const input = `${"https://www.google.com/url?q=".repeat(1000)}https://example.com/`;
    assert.throws(
      () => explain(input),
      (e) => isUrlError(e) && e.code === "invalid-url",
    );
    // Eight rounds accepted: parse, generic and rule per round, then the target's own.
    const ok = explain(`${"https://www.google.com/url?q=".repeat(8)}https://example.com/`);
    assert.equal(ok.canonical, "https://example.com/");
    assert.ok(ok.steps.length <= 3 * 9 + 1, `${ok.steps.length} steps`);
  });
});
