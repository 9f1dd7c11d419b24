import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isRedirectError, isUrlError } from "../../../src/errors/guards.js";
import { resolveLocation } from "../../../src/resolve/discover/location.js";

const from = new URL("http://a.test/dir/page?x=1");

describe("resolveLocation (RFC 9110 §10.2.2, RFC 3986 §5.2)", () => {
  it("resolves every reference form against the request URL", () => {
    const cases: Array<[string, string]> = [
      ["https://b.test/abs", "https://b.test/abs"],
      ["//c.test/proto", "http://c.test/proto"],
      ["/root", "http://a.test/root"],
      ["sibling", "http://a.test/dir/sibling"],
      ["../up", "http://a.test/up"],
      ["?y=2", "http://a.test/dir/page?y=2"],
      ["  /trimmed  ", "http://a.test/trimmed"],
    ];
    for (const [location, expected] of cases)
      assert.equal(resolveLocation(location, from).href, expected, location);
  });

  it("re-decodes a raw UTF-8 Location that arrived as latin1", () => {
    const latin1 = Buffer.from("/café", "utf8").toString("latin1");
    assert.equal(resolveLocation(latin1, from).pathname, "/caf%C3%A9");
  });

  it("accepts repeated identical fields, refuses conflicting ones", () => {
    assert.equal(resolveLocation(["/a", "/a"], from).href, "http://a.test/a");
    assert.throws(
      () => resolveLocation(["/a", "/b"], from),
      (e) => isRedirectError(e) && e.code === "invalid-location",
    );
  });

  it("refuses a missing, empty or unparseable Location as invalid-location with the URL", () => {
    for (const bad of [undefined, "", "   ", "http://[::1", "https://exa mple.test/"]) {
      assert.throws(
        () => resolveLocation(bad, from),
        (e) => isRedirectError(e) && e.code === "invalid-location" && e.message.includes(from.href),
        String(bad),
      );
    }
  });

  it("refuses a non-http(s) target as unsupported-scheme", () => {
    for (const bad of ["ftp://a.test/", "javascript:alert(1)", "file:///etc/passwd", "data:text/html,x"]) {
      assert.throws(
        () => resolveLocation(bad, from),
        (e) => isUrlError(e) && e.code === "unsupported-scheme",
        bad,
      );
    }
  });
});
