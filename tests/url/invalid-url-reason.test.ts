import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classify, isUrlError, normalize } from "../../src/index.js";
import { invalidUrlReason } from "../../src/url/invalid-url-reason.js";

function failure(input: string): string {
  try {
    normalize(input);
  } catch (error) {
    assert.ok(isUrlError(error), `${input}: a UrlError`);
    assert.equal(error.code, "invalid-url", input);
    return error.message;
  }
  assert.fail(`${input} normalized`);
}

describe("host-less input is invalid-url, as classify() calls it (issue 14)", () => {
  it("a rooted path is refused with a message that says there is no host", () => {
    // Before: "/relative/path/" became "http://relative/path" (the parser skipped the slashes).
    assert.equal(classify("/relative/path/").class, "relative");
    assert.match(failure("/relative/path/"), /no host: a rooted path/);
    assert.match(failure("\\x"), /no host: a rooted path/);
  });

  it("an empty authority, a bare query or fragment has no host either", () => {
    assert.match(failure("///x"), /no host: the authority after "\/\/" is empty/);
    assert.match(failure("//"), /no host: the authority after "\/\/" is empty/);
    assert.match(failure("//?q=1"), /no host/);
    assert.match(failure("?q=1"), /no host: a bare query or fragment/);
    assert.match(failure("#top"), /no host: a bare query or fragment/);
  });

  it("a protocol-relative reference still takes the default scheme", () => {
    assert.equal(normalize("//host.test/x"), "http://host.test/x");
    assert.equal(normalize("//host.test/x", { defaultScheme: "https" }), "https://host.test/x");
    assert.equal(normalize("\\\\host.test\\x"), "http://host.test/x");
    assert.equal(normalize("host.test/x"), "http://host.test/x");
  });

  // Not in the list: "a.test:8080/x", which classify() reads as scheme "a.test" (hidden-host) and
  // normalize as host and port on purpose (src/url/scheme-token.ts says why).
  it("agrees with classify(): every schemeless input normalize accepts has a host there", () => {
    const inputs = [
      "/a",
      "/a/b/",
      "//a.test/",
      "///a.test/",
      "\\\\a.test",
      "/\\a.test/x",
      "a.test/x",
      "?x",
      "#x",
      "//",
      "/",
      "./a",
      "//a.test:99/p",
    ];
    let accepted = 0;
    for (const input of inputs) {
      const form = classify(input);
      let ok = true;
      try {
        normalize(input);
      } catch (error) {
        if (!isUrlError(error)) throw error;
        ok = false;
      }
      if (ok) {
        accepted++;
        assert.notEqual(form.host, "", `${input}: normalize found a host classify did not (${form.class})`);
      } else if (form.class === "relative") assert.equal(form.host, "");
    }
    assert.ok(accepted >= 5, `${accepted} accepted`);
  });
});

describe("invalid-URL messages say why (issue 12)", () => {
  it("names a port out of range", () => {
    assert.match(failure("http://a.test:99999/"), /port 99999 is out of range \(0-65535\)/);
    assert.match(failure("a.test:65536/x"), /port 65536 is out of range/);
    assert.match(failure("http://a.test:12345678901234567890/"), /out of range/);
  });

  it("names a port that is not a number", () => {
    assert.match(failure("http://a.test:8o/"), /port "8o" is not a number/);
  });

  it("names the forbidden host character and its code point", () => {
    assert.match(failure("http://exa mple.com/"), /forbidden host character " " \(U\+0020\)/);
    assert.match(failure("http://a<b.test/"), /forbidden host character "<" \(U\+003C\)/);
    assert.match(failure("http://a|b.test/"), /forbidden host character "\|" \(U\+007C\)/);
    assert.match(
      failure("http://a%20b.test/"),
      /forbidden host character " " \(U\+0020\) \(percent-encoded\)/,
    );
    assert.match(failure("http://a%00b.test/"), /forbidden host character U\+0000 \(percent-encoded\)/);
  });

  it("names an empty host and an unclosed IPv6 bracket", () => {
    assert.match(failure("http://"), /empty host/);
    assert.match(failure("http://user@/x"), /empty host/);
    assert.match(failure("http://:80/"), /empty host/);
    assert.match(failure("http://[::1/"), /unclosed IPv6 bracket/);
  });

  it("keeps the plain message when the authority does not show the reason", () => {
    // An IPv4-looking host with five parts fails in the IPv4 parser, which the authority scan cannot see.
    const message = failure("http://1.2.3.4.5/");
    assert.equal(message, 'invalid URL: "http://1.2.3.4.5/"');
    assert.equal(invalidUrlReason("no authority here"), undefined);
  });

  it("reads only the authority: a long path costs nothing more", () => {
    const long = `http://a.test:99999/${"x".repeat(1_000_000)}`;
    assert.equal(invalidUrlReason(long), "port 99999 is out of range (0-65535)");
  });
});
