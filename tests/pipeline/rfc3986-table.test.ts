import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isUrlError, normalize } from "../../src/index.js";

// url_canonicalize's normalization table (shared/seeds/000_*.txt, "Normalization makes these
// changes and no others"), one group of rows per line of the table.
const TABLE: Record<string, [input: string, expected: string][]> = {
  "scheme and host lowercased": [
    ["HTTP://EXAMPLE.COM/Path", "http://example.com/Path"],
    ["HtTpS://Www.Example.Org/", "https://www.example.org/"],
  ],
  "internationalized host to punycode": [
    ["http://münchen.de/", "http://xn--mnchen-3ya.de/"],
    ["https://BÜCHER.example/", "https://xn--bcher-kva.example/"],
    ["http://☃.net/", "http://xn--n3h.net/"],
  ],
  "default port removed, other ports kept": [
    ["http://example.com:80/", "http://example.com/"],
    ["https://example.com:443/", "https://example.com/"],
    ["http://example.com:443/", "http://example.com:443/"],
    ["https://example.com:8443/a", "https://example.com:8443/a"],
  ],
  "dot segments resolved": [
    ["http://example.com/a/./b/../c", "http://example.com/a/c"],
    ["http://example.com/../../a", "http://example.com/a"],
    ["http://example.com/a/%2e%2E/b", "http://example.com/b"],
  ],
  "percent-encoding: uppercase hex, unreserved decoded, invalid encoded, reserved kept": [
    ["http://example.com/%7euser", "http://example.com/~user"],
    ["http://example.com/%41%42%2d%5F", "http://example.com/AB-_"],
    ["http://example.com/a%2fb", "http://example.com/a%2Fb"],
    ["http://example.com/a b", "http://example.com/a%20b"],
    ["http://example.com/a|b^c[d]", "http://example.com/a%7Cb%5Ec%5Bd%5D"],
    ["http://example.com/100%", "http://example.com/100%25"],
    ["http://example.com/?q=a%26b", "http://example.com/?q=a%26b"],
    ["http://example.com/?x=%2525", "http://example.com/?x=%2525"],
    ["http://example.com/%3f%23%25", "http://example.com/%3F%23%25"],
    ["http://example.com/é", "http://example.com/%C3%A9"],
  ],
  "empty path becomes /": [
    ["http://example.com", "http://example.com/"],
    ["https://example.com?a=1", "https://example.com/?a=1"],
  ],
  "trailing slash kept": [
    ["http://example.com/a/", "http://example.com/a/"],
    ["http://example.com/a", "http://example.com/a"],
  ],
  "query kept verbatim (order, duplicates, empty pairs)": [
    ["http://example.com/?b=2&a=1&b=1", "http://example.com/?b=2&a=1&b=1"],
    ["http://example.com/?utm_source=x&&a", "http://example.com/?utm_source=x&&a"],
    ["http://example.com/?", "http://example.com/?"],
    // An empty fragment after it changes nothing: the "?" stays (it once went, with "#" only).
    ["http://example.com/?#", "http://example.com/?"],
    ["http://example.com?#top", "http://example.com/?"],
  ],
  "fragment stripped": [
    ["http://example.com/a#section", "http://example.com/a"],
    ["http://example.com/a?b#", "http://example.com/a?b"],
  ],
  "input trimmed": [
    ["  http://example.com/  ", "http://example.com/"],
    ["\u00a0http://example.com/\n", "http://example.com/"],
  ],
  "no scheme token gets http://, a later colon does not count": [
    ["example.com", "http://example.com/"],
    ["example.com/a:b", "http://example.com/a:b"],
    ["example.com:8080/x", "http://example.com:8080/x"],
    ["//example.com/x", "http://example.com/x"],
  ],
};

describe("rfc3986 preset reproduces url_canonicalize's table", () => {
  for (const [rule, rows] of Object.entries(TABLE)) {
    it(rule, () => {
      for (const [input, expected] of rows) {
        assert.equal(normalize(input, { preset: "rfc3986" }), expected, JSON.stringify(input));
      }
    });
  }

  it("non-http(s) schemes are unsupported-scheme", () => {
    for (const input of [
      "ftp://example.com/",
      "mailto:a@example.com",
      "javascript:alert(1)",
      "file:///etc/passwd",
      "data:text/html,x",
    ]) {
      assert.throws(
        () => normalize(input, { preset: "rfc3986" }),
        (e) => isUrlError(e) && e.code === "unsupported-scheme",
        input,
      );
    }
  });

  it("unparseable input is invalid-url, with the input in the message", () => {
    for (const input of ["", "   ", "http://", "http://[::1", "http://exa mple.com/", "https://a:b:c/"]) {
      assert.throws(
        () => normalize(input, { preset: "rfc3986" }),
        (e) =>
          isUrlError(e) &&
          e.code === "invalid-url" &&
          e.message.includes(JSON.stringify(input).slice(1, -1).trim()),
        JSON.stringify(input),
      );
    }
  });
});
