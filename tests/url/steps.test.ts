import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUrlError } from "../../src/index.js";
import { stripTrailingDot } from "../../src/url/host.js";
import { parseInput } from "../../src/url/parse-input.js";
import { joinQuery, sortQueryParams, splitQuery } from "../../src/url/query-params.js";
import { schemeTokenLength } from "../../src/url/scheme-token.js";
import { applyTrailingSlash } from "../../src/url/trailing-slash.js";

describe("schemeTokenLength (RFC 3986 §3.1)", () => {
  it("finds a leading scheme token", () => {
    assert.equal(schemeTokenLength("https://x"), 6);
    assert.equal(schemeTokenLength("git+ssh://x"), 8);
    assert.equal(schemeTokenLength("mailto:a@b"), 7);
  });
  it("reads host:port as no scheme, and ignores later colons", () => {
    assert.equal(schemeTokenLength("example.com:8080"), 0);
    assert.equal(schemeTokenLength("localhost:3000/x?y"), 0);
    assert.equal(schemeTokenLength("example.com/a:b"), 0);
    assert.equal(schemeTokenLength("1http://x"), 0);
    assert.equal(schemeTokenLength(":x"), 0);
    assert.equal(schemeTokenLength("example.com"), 0);
  });
});

describe("parseInput", () => {
  it("trims, removes tab and newline, defaults the scheme", () => {
    assert.equal(parseInput(" \tExample.COM/a\n ", "http").url.href, "http://example.com/a");
    assert.equal(parseInput("h\tttps://a.test/", "http").url.href, "https://a.test/");
    assert.equal(parseInput("a.test", "https").url.href, "https://a.test/");
  });
  it("refuses what is not http(s) or does not parse", () => {
    assert.throws(
      () => parseInput("ws://a.test/", "http"),
      (e) => isUrlError(e) && e.code === "unsupported-scheme",
    );
    assert.throws(
      () => parseInput("http://a b/", "http"),
      (e) => isUrlError(e) && e.code === "invalid-url" && e.cause instanceof TypeError,
    );
  });
});

describe("stripTrailingDot", () => {
  it("removes trailing dots, idempotently, but never empties a host", () => {
    assert.equal(stripTrailingDot("example.com."), "example.com");
    assert.equal(stripTrailingDot("example.com.."), "example.com");
    assert.equal(stripTrailingDot("example.com"), "example.com");
    assert.equal(stripTrailingDot("."), ".");
  });
});

describe("query params", () => {
  it("split keeps escapes and bare names, drops empty segments", () => {
    assert.deepEqual(splitQuery("q=a%26b&&flag&x=1=2&"), [
      { name: "q", value: "a%26b" },
      { name: "flag", value: null },
      { name: "x", value: "1=2" },
    ]);
    assert.deepEqual(splitQuery(""), []);
  });
  it("sort is by name then value, bare name first, stable", () => {
    const sorted = sortQueryParams(splitQuery("b=2&a=2&a=1&a&c=&c"));
    assert.equal(joinQuery(sorted), "a&a=1&a=2&b=2&c&c=");
  });
});

describe("applyTrailingSlash", () => {
  it("applies each policy and never touches the root", () => {
    assert.equal(applyTrailingSlash("/a/", "strip"), "/a");
    assert.equal(applyTrailingSlash("/a//", "strip"), "/a");
    assert.equal(applyTrailingSlash("//", "strip"), "/");
    assert.equal(applyTrailingSlash("/a", "add"), "/a/");
    assert.equal(applyTrailingSlash("/a/", "add"), "/a/");
    assert.equal(applyTrailingSlash("/a/", "keep"), "/a/");
    assert.equal(applyTrailingSlash("/", "strip"), "/");
  });
});
