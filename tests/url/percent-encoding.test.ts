import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalizePercentEncoding } from "../../src/url/percent-encoding.js";

describe("normalizePercentEncoding (RFC 3986 §6.2.2)", () => {
  it("returns the same string when nothing changes", () => {
    const s = "/a/b-c_d~e.f!$&'()*+,;=:@";
    assert.equal(normalizePercentEncoding(s, "path"), s);
  });
  it("uppercases the hex of escapes it keeps", () => {
    assert.equal(normalizePercentEncoding("/a%2fb%3a", "path"), "/a%2Fb%3A");
  });
  it("decodes escapes of unreserved characters only", () => {
    assert.equal(normalizePercentEncoding("%41%7a%30%2D%2e%5f%7E", "path"), "Az0-._~");
    assert.equal(normalizePercentEncoding("%2F%3F%23%26%25%3D%2B", "query"), "%2F%3F%23%26%25%3D%2B");
  });
  it("encodes a % that starts no escape", () => {
    assert.equal(normalizePercentEncoding("100%", "path"), "100%25");
    assert.equal(normalizePercentEncoding("%zz%4", "path"), "%25zz%254");
  });
  it("encodes characters the component does not allow raw", () => {
    assert.equal(
      normalizePercentEncoding('a"b<c>d[e]f^g`h{i}j|k\\l', "path"),
      "a%22b%3Cc%3Ed%5Be%5Df%5Eg%60h%7Bi%7Dj%7Ck%5Cl",
    );
    assert.equal(normalizePercentEncoding("a?b", "path"), "a%3Fb");
    assert.equal(normalizePercentEncoding("a?b/c", "query"), "a?b/c");
    assert.equal(normalizePercentEncoding("u/s@r", "userinfo"), "u%2Fs%40r");
  });
  it("encodes raw non-ASCII as UTF-8", () => {
    assert.equal(normalizePercentEncoding("é😀", "fragment"), "%C3%A9%F0%9F%98%80");
  });
  it("is idempotent", () => {
    for (const s of ["%2525", "a%2fb%7e", "100%", "x|y", "%C3%A9"]) {
      const once = normalizePercentEncoding(s, "query");
      assert.equal(normalizePercentEncoding(once, "query"), once, s);
    }
  });
});
