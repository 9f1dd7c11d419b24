import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArchiveUrl } from "../../src/archive/archive-url.js";
import { unescapeRepeatedly } from "../../src/archive/percent-bytes.js";
import { stripPathSessionId, stripQuerySessionId } from "../../src/archive/strip-session-ids.js";
import { normalize, ssurt, surt } from "../../src/index.js";

describe("surt", () => {
  it("gives the Internet Archive's CDX key", () => {
    assert.equal(surt("http://www.Example.com/a?b=1"), "com,example)/a?b=1");
    assert.equal(surt("https://archive.org/goo/?b&a"), "org,archive)/goo?a&b");
    assert.equal(surt("http://archive.org/goo/?a=2&b&a=1"), "org,archive)/goo?a=1&a=2&b");
    assert.equal(surt("example.com"), "com,example)/");
    assert.equal(surt("HTTP://EXAMPLE.COM:80"), "com,example)/");
    assert.equal(surt("http://www.example.com/Path/Page.HTML#frag"), "com,example)/path/page.html");
  });

  it("keeps www when asked", () => {
    assert.equal(surt("http://www.example.com/", { keepWww: true }), "com,example,www)/");
    assert.equal(surt("http://www2.example.com/"), "com,example)/");
  });

  it("runs the chosen preset first", () => {
    const url = "http://a.example/c?utm_source=x&q=1";
    assert.equal(surt(url), "example,a)/c?q=1&utm_source=x");
    assert.equal(surt(url, { preset: "identity" }), "example,a)/c?q=1");
    // The WHATWG parser refuses "%23" in a host; the Archive's own reading keeps it escaped.
    assert.throws(() => surt("http://host%23.com/"), { code: "invalid-url" });
    assert.equal(surt("http://host%23.com/", { preset: "none" }), "com,host%23)/");
  });

  it("validates its options", () => {
    assert.throws(() => surt("http://a.test/", { keepwww: true } as never), {
      name: "TypeError",
      message: /keepwww/,
    });
    assert.throws(() => surt("http://a.test/", { preset: "loose" } as never), {
      name: "TypeError",
      message: /preset/,
    });
    assert.throws(() => surt("http://a.test/", { keepWww: "yes" } as never), {
      name: "TypeError",
      message: /keepWww/,
    });
    assert.throws(() => surt(42 as never), { name: "TypeError" });
  });

  it("passes CDX records and host-less URLs through, and maps empty input to -", () => {
    assert.equal(surt(""), "-");
    assert.equal(surt("   "), "-");
    assert.equal(surt("dns:archive.org"), "dns:archive.org");
    assert.equal(surt("filedesc:foo.arc.gz"), "filedesc:foo.arc.gz");
    assert.equal(surt("mailto:a@example.com"), "mailto:a@example.com");
    assert.equal(surt("whois://whois.isoc.org.il/shaveh.co.il"), "il,org,isoc,whois)/shaveh.co.il");
  });

  it("handles IPv4 spellings, IPv6, IDN, userinfo and ports", () => {
    assert.equal(surt("http://3279880203/blah"), "11,0,127,195)/blah");
    assert.equal(surt("http://0x7f.1/"), "1,0,0,127)/");
    assert.equal(surt("http://3279880203/", { preset: "none" }), "11,0,127,195)/");
    assert.equal(surt("http://[2001:DB8::1]:8080/x"), "[2001:db8::1]:8080)/x");
    assert.equal(surt("http://[::1]/", { preset: "none" }), "[::1])/");
    assert.equal(surt("https://Bücher.example/straße"), "example,xn--bcher-kva)/stra%c3%9fe");
    assert.equal(surt("https://B%C3%BCcher.example/", { preset: "none" }), "example,xn--bcher-kva)/");
    assert.equal(surt("http://user:pw@example.com:8080/"), "com,example:8080)/");
    assert.equal(surt("https://example.com:443/"), "com,example)/");
    assert.equal(surt("ftp://ftp.example.com:21/a", { preset: "none" }), "com,example,ftp:21)/a");
    assert.throws(() => surt("http://example.com:99999/", { preset: "none" }), { code: "invalid-url" });
  });
});

describe("surt on hostile input: work and output stay linear", { timeout: 20_000 }, () => {
  it("reverses a host of 10,000 labels", () => {
    const labels = Array.from({ length: 10_000 }, (_, i) => `l${i % 97}`);
    const key = surt(`http://${labels.join(".")}.com/`, { preset: "none" });
    const host = key.slice(0, key.indexOf(")"));
    assert.equal(host.split(",").length, 10_001);
    assert.equal(host, ["com", ...labels.reverse()].join(","));
  });

  it("decodes %25%25… of 200,000 escapes in one pass (surt's loop needs 100,000 rounds)", () => {
    const key = surt(`http://a.example/${"%2525".repeat(50_000)}`, { preset: "none" });
    // Each "%2525" decodes to "%" (twice), then "%" is escaped once: "%25" per group.
    assert.equal(key, `example,a)/${"%25".repeat(50_000)}`);
  });

  it("strips session ids from long queries and paths without backtracking", () => {
    const query = "cfid=".repeat(100_000);
    assert.equal(stripQuerySessionId(query), query);
    const ok = `a=1&${"cfid=".repeat(1000)}cfid=1&cftoken=2&b=3`;
    assert.equal(stripQuerySessionId(ok), `a=1&${"cfid=".repeat(1000)}b=3`);
    const path = `/${"(".repeat(100_000)}.aspx`;
    assert.equal(stripPathSessionId(path), path);
    // 64,000 characters: just under the canonical URL's length bound, which the default preset
    // applies (past it, the next test).
    const key = surt(`http://a.example/?${"sid=".repeat(16_000)}`);
    assert.ok(key.length <= 20 + 4 * 16_000, "the key is no longer than its input");
  });

  it("refuses, through the default preset, an input past the canonical URL's length bound", () => {
    assert.throws(
      () => surt(`http://a.example/?${"sid=".repeat(50_000)}`),
      (error: unknown) =>
        (error as { code?: string }).code === "invalid-url" && /over the limit/.test(String(error)),
    );
  });

  it("formats ssurt of a long URL in one pass", () => {
    const host = Array.from({ length: 10_000 }, () => "a").join(".");
    const out = ssurt(`http://${host}/p`);
    assert.equal(out.length, `${host},//http:/p`.length);
  });
});

describe("ssurt", () => {
  it("orders every part from general to specific", () => {
    assert.equal(
      ssurt("http://user:pass@foo.example.org:81/path?query#frag"),
      "org,example,foo,//81:http@user:pass:/path?query#frag",
    );
    assert.equal(ssurt("http://1.2.3.4/"), "1.2.3.4//http:/");
    assert.equal(ssurt("http://[::1]:80/a"), "[::1]//80:http:/a");
    assert.equal(ssurt(normalize("HTTP://Example.COM/a")), "com,example,//http:/a");
  });

  it("returns a URL without an authority as it is", () => {
    assert.equal(ssurt("screenshot:http://example.com/"), "screenshot:http://example.com/");
    assert.equal(ssurt("example.com/x"), "example.com/x");
    assert.throws(() => ssurt(undefined as never), { name: "TypeError" });
  });
});

describe("parseArchiveUrl", () => {
  it("reads URLs the way surt's handyurl does", () => {
    assert.equal(parseArchiveUrl("http:////////www.vikings.com")?.host, "www.vikings.com");
    assert.equal(parseArchiveUrl("http://https://order.1and1.com")?.scheme, "https");
    assert.equal(parseArchiveUrl("http://mineral.galleries.com:/a")?.port, null);
    assert.deepEqual(parseArchiveUrl("dns:Archive.org"), {
      scheme: "dns",
      user: null,
      password: null,
      host: "Archive.org",
      port: null,
      path: "",
      query: null,
      fragment: null,
    });
    assert.equal(parseArchiveUrl("http://a.example:x/"), undefined);
  });
});

describe("unescapeRepeatedly", () => {
  it("reaches the fixpoint of whole-string decoding", () => {
    const dec = (s: string) => Buffer.from(unescapeRepeatedly(Buffer.from(s, "latin1"))).toString("latin1");
    assert.equal(dec("%25%32%35"), "%");
    assert.equal(dec("%%36%31"), "a");
    assert.equal(dec("%2%35"), "%");
    assert.equal(dec("%zz%4"), "%zz%4");
  });
});
