import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asciiLower } from "../../src/classify/ascii-lower.js";
import { canonicalizeSlashes, schemeEnd } from "../../src/classify/canonicalize-slashes.js";
import { hasValidEscapes, unescapeHost, unescapeZone } from "../../src/classify/go-unescape.js";
import { isIpv6Literal } from "../../src/classify/is-ipv6-literal.js";
import { parseLikeGo } from "../../src/classify/parse-like-go.js";
import { InputFlag, scanInput } from "../../src/classify/preprocess.js";
import { hostnameOf, portOf } from "../../src/classify/split-host-port.js";
import { isEdgeSpace, trimEdges } from "../../src/classify/trim-edges.js";

describe("the net/url acceptance model", () => {
  it("reads IPv6 literals the way netip.ParseAddr does", () => {
    for (const ok of [
      "::",
      "::1",
      "1:2:3:4:5:6:7:8",
      "::ffff:1.2.3.4",
      "1::",
      "fe80::1%en0",
      "1:2:3:4:5:6:1.2.3.4",
      "ABCD::",
    ])
      assert.equal(isIpv6Literal(ok), true, ok);
    for (const bad of [
      "",
      "1.2.3.4",
      "%en0",
      "::1%",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4:5:6:7::8",
      "1::2::3",
      "12345::",
      "::1.2.3.04",
      "::1.2.3.256",
      "1:2:3:4:5:1.2.3.4",
      ":1",
      "1:",
      "g::",
      "::1.2.3",
    ])
      assert.equal(isIpv6Literal(bad), false, bad);
  });

  it("accepts and refuses hosts like Go 1.26 url.Parse", () => {
    assert.equal(parseLikeGo("http://[::1]:80/")?.host, "[::1]:80");
    assert.equal(parseLikeGo("http://[fe80::1%25en0]/")?.host, "[fe80::1%en0]");
    assert.equal(parseLikeGo("http://[fe80::1%en0]/"), null, "a zone needs %25");
    assert.equal(parseLikeGo("http://x[::1]/"), null, "[ only first");
    assert.equal(parseLikeGo("http://[::1]x/"), null, "junk after ]");
    assert.equal(parseLikeGo("http://a:b:80/"), null, "strict colons for http");
    assert.equal(parseLikeGo("ws://a:b:80/")?.host, "a:b:80", "last colon for other schemes");
    assert.equal(parseLikeGo("//a:b:80/")?.host, "a:b:80", "and without a scheme");
    assert.equal(parseLikeGo("ws://a:b/"), null);
    assert.equal(parseLikeGo("http://a^b/"), null);
    assert.equal(parseLikeGo('http://a<b>"/')?.host, 'a<b>"');
    assert.equal(parseLikeGo("http://%C3%A9/")?.host, "\u00e9");
    assert.equal(parseLikeGo("http://%C3/")?.host, "\ufffd", "invalid UTF-8 becomes U+FFFD");
    assert.equal(parseLikeGo("http://a%2/"), null);
  });

  it("checks userinfo, path and fragment escapes but never the query or an opaque path", () => {
    assert.equal(parseLikeGo("http://a%41:b%42@h/")?.hasUserInfo, true);
    assert.equal(parseLikeGo("http://a%4:b@h/"), null);
    assert.equal(parseLikeGo("http://a b@h/"), null);
    assert.equal(parseLikeGo("http://a@b@h/")?.host, "h");
    assert.equal(parseLikeGo("http://h/%4"), null);
    assert.equal(parseLikeGo("http://h/?%4")?.host, "h");
    assert.equal(parseLikeGo("http://h/#%4"), null);
    assert.equal(parseLikeGo("mailto:%4")?.scheme, "mailto");
    assert.equal(parseLikeGo("http://h/\u007f"), null);
    assert.equal(parseLikeGo("http://h/#\u007f")?.host, "h");
  });

  it("reads schemes and relative references like getScheme", () => {
    assert.equal(parseLikeGo(":x"), null);
    assert.equal(parseLikeGo("a:b")?.scheme, "a");
    assert.equal(parseLikeGo("1a:b"), null);
    assert.equal(parseLikeGo("a/b:c")?.scheme, "");
    assert.equal(parseLikeGo("///h/x")?.host, "", "three slashes: a rooted path");
    assert.equal(parseLikeGo("http:///h/x")?.host, "", "with a scheme: an empty authority");
    assert.equal(parseLikeGo("*")?.host, "");
  });

  it("splits host and port like Hostname() and Port()", () => {
    assert.deepEqual([hostnameOf("a.test:8080"), portOf("a.test:8080")], ["a.test", "8080"]);
    assert.deepEqual([hostnameOf("[::1]"), portOf("[::1]")], ["::1", ""]);
    assert.deepEqual([hostnameOf(":443"), portOf(":443")], ["", "443"]);
    assert.deepEqual([hostnameOf("a:b"), portOf("a:b")], ["a:b", ""]);
    assert.deepEqual([hostnameOf("[::1]:"), portOf("[::1]:")], ["::1", ""]);
  });

  it("validates and decodes escapes per part", () => {
    assert.equal(hasValidEscapes("%", 0, 1), false);
    assert.equal(hasValidEscapes("%a", 0, 2), false);
    assert.equal(hasValidEscapes("x%aFy", 0, 5), true);
    assert.equal(hasValidEscapes("%zz|%41", 4, 7), true, "bounds respected");
    assert.equal(unescapeHost("%25", 0, 3), "%");
    assert.equal(unescapeHost("%7F", 0, 3), null);
    assert.equal(unescapeHost("%F0%9F%98%80", 0, 12), "\ud83d\ude00");
    assert.equal(unescapeHost("%E0%80", 0, 6), "\ufffd\ufffd");
    assert.equal(unescapeZone("%25a%20b", 0, 8), "%a b");
    assert.equal(unescapeZone("%25%C3%A9", 0, 9), null, "escaped non-ASCII is refused in a zone");
    assert.equal(unescapeZone("%25a b", 0, 6), null);
  });

  it("decodes escaped UTF-8 as the WHATWG decoder does: one U+FFFD per maximal invalid subpart", () => {
    const host = (s: string) => unescapeHost(s, 0, s.length);
    const R = "\ufffd";
    assert.equal(host("ex%C3%A9.test"), "ex\u00e9.test");
    // A leading EF BB BF is the host's own bytes, not a byte-order mark to drop.
    assert.equal(host("%EF%BB%BFa.test"), "\ufeffa.test");
    assert.equal(host("a%EF%BB%BF"), "a\ufeff");
    assert.equal(host("%C0%AF"), R + R, "overlong lead byte");
    assert.equal(host("%E0%80%80"), R + R + R, "E0 needs A0..BF next");
    assert.equal(host("%ED%A0%80"), R + R + R, "an encoded surrogate");
    assert.equal(host("%F4%90%80%80"), R + R + R + R, "past U+10FFFF");
    assert.equal(host("%F0%9F%98"), R, "a truncated sequence is one subpart");
    assert.equal(host("%F0%9F%98x%80"), `${R}x${R}`, "a literal ends a run of escapes");
    assert.equal(host("%E2%82%AC%80%C3%A9"), `\u20ac${R}\u00e9`);
    assert.equal(host("%FF%FE"), R + R);
  });
});

describe("preprocessing helpers", () => {
  it("trims C0, space and the 25 White_Space code points, nothing else", () => {
    let count = 0;
    for (let c = 0x21; c < 0x10000; c++) if (isEdgeSpace(c)) count++;
    // 25 White_Space code points minus the 6 that are C0 or space (U+0009..U+000D, U+0020).
    assert.equal(count, 19);
    assert.equal(trimEdges("\u0085\u2028x\u205f\u3000"), "x");
    assert.equal(trimEdges("\ufeffx\u200b"), "\ufeffx\u200b");
  });

  it("canonicalizes backslashes only for special and schemeless forms ahead of ? and #", () => {
    assert.equal(canonicalizeSlashes("HTTP:\\\\a\\b?c\\d#e\\"), "HTTP://a/b?c\\d#e\\");
    assert.equal(canonicalizeSlashes("\\\\a\\b#\\"), "//a/b#\\");
    assert.equal(canonicalizeSlashes("x-y:\\\\a"), "x-y:\\\\a");
    assert.equal(schemeEnd("a+b:"), 3);
    assert.equal(schemeEnd("+a:"), -1);
  });

  it("folds ASCII letters only", () => {
    assert.equal(asciiLower("AbC\u0130\u212aZ"), "abc\u0130\u212az");
    const s = "already.lower";
    assert.equal(asciiLower(s), s);
  });
});

describe("scanInput()", () => {
  it("flags tab/newline, backslash and other controls, and nothing for ordinary text", () => {
    assert.equal(scanInput("https://a.test/x?y#z"), 0);
    assert.equal(scanInput("a\tb"), InputFlag.tabOrNewline);
    assert.equal(scanInput("a\\b\r"), InputFlag.backslash | InputFlag.tabOrNewline);
    assert.equal(scanInput("a\u0000b\u007f"), InputFlag.control);
    assert.equal(scanInput("\u00a0\u0080"), 0);
  });
});

describe("Go's own url.Parse error table (net/url TestParseErrors, TestRejectControlCharacters)", () => {
  const table: [input: string, wantErr: boolean][] = [
    ["http://[::1]", false],
    ["http://[::1]:80", false],
    ["http://[::1]:namedport", true],
    ["http://x:namedport", true],
    ["http://[::1]/", false],
    ["http://[::1]a", true],
    ["http://[::1]%23", true],
    ["http://[::1%25en0]", false],
    ["http://[::1]:", false],
    ["http://x:", false],
    ["http://[::1]:%38%30", true],
    ["http://[::1%25%41]", false],
    ["http://[%10::1]", true],
    ["http://[::1]/%48", false],
    ["http://%41:8080/", true],
    ["mysql://x@y(z:123)/foo", true],
    ["mysql://x@y(1.2.3.4:123)/foo", true],
    [" http://foo.com", true],
    ["ht tp://foo.com", true],
    ["ahttp://foo.com", false],
    ["1http://foo.com", true],
    ["http://[]%20%48%54%54%50%2f%31%2e%31%0a%4d%79%48%65%61%64%65%72%3a%20%31%32%33%0a%0a/", true],
    ["http://a b.com/", true],
    ["cache_object://foo", true],
    ["cache_object:foo", true],
    ["cache_object:foo/bar", true],
    ["cache_object/:foo/bar", false],
    ["http://user^:passwo^rd@foo.com/", true],
    ["http://foo.com/?foo\nbar", true],
    ["http\r://foo.com/", true],
    ["http://foo\u007f.com/", true],
    ["http://foo.com/ctl\u0080", false],
    // Go 1.24.8+: only IPv6 inside brackets; Go 1.26: strict colons for http and https.
    ["http://[127.0.0.1]/", true],
    ["http://[::ffff:127.0.0.1]/", false],
    ["http://::1/", true],
    ["http://localhost:80:80/", true],
    ["postgres://h1:1,h2:2/", false],
  ];
  for (const [input, wantErr] of table) {
    it(`${JSON.stringify(input)} ${wantErr ? "fails" : "parses"}`, () => {
      assert.equal(parseLikeGo(input) === null, wantErr);
    });
  }
});
