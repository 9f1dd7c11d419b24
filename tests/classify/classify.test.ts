import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classify, isAsciiHost, type UrlFormClass } from "../../src/classify/index.js";
import * as pkg from "../../src/index.js";

// One example per class plus the facts the two consumer patterns branch on; the shapes follow the
// urlform seed's own class table.
const table: {
  raw: string;
  cls: UrlFormClass;
  host?: string;
  bs?: boolean;
  tab?: boolean;
  lost?: boolean;
}[] = [
  { raw: "   ", cls: "empty" },
  { raw: "https://nyaa.si/\u007f", cls: "malformed" },
  { raw: "1a:b", cls: "malformed" },
  { raw: " https://NYAA.si/view/1 ", cls: "absolute", host: "nyaa.si" },
  { raw: "ftp://animebytes.tv/x", cls: "absolute", host: "animebytes.tv" },
  { raw: "https:/animebytes.tv/x", cls: "hidden-host", host: "animebytes.tv" },
  { raw: "https:animebytes.tv/x", cls: "hidden-host", host: "animebytes.tv" },
  { raw: "https:/anime bytes@tv/x", cls: "hidden-host", lost: true },
  { raw: "animebytes.tv:443/x", cls: "hidden-host" },
  { raw: "https://:443/x", cls: "hidden-host" },
  { raw: "javascript:alert(1)", cls: "hidden-host" },
  { raw: "non-special:\\\\opaque\\x", cls: "hidden-host", bs: true },
  { raw: "//animebytes.tv/x", cls: "protocol-relative", host: "animebytes.tv" },
  { raw: "///animebytes.tv/x", cls: "protocol-relative" },
  { raw: "\\\\animebytes.tv/x", cls: "protocol-relative", host: "animebytes.tv", bs: true },
  { raw: "/\\animebytes.tv/x", cls: "protocol-relative", host: "animebytes.tv", bs: true },
  { raw: "animebytes.tv/torrents.php?id=1", cls: "schemeless-host", host: "animebytes.tv" },
  { raw: "?x:y", cls: "schemeless-host" },
  { raw: "foo bar@animebytes.tv/x", cls: "schemeless-host", lost: true },
  { raw: "/torrents.php?id=1", cls: "relative" },
  { raw: "https://anime\tbytes.tv/x", cls: "absolute", host: "animebytes.tv", tab: true },
  { raw: "ht\ntps://animebytes.tv/x", cls: "absolute", host: "animebytes.tv", tab: true },
  { raw: "\u0000\u001fhttps://animebytes.tv/x\u001f ", cls: "absolute", host: "animebytes.tv" },
  { raw: "https://anime\u0001bytes.tv/x", cls: "malformed" },
];

describe("classify()", () => {
  for (const row of table) {
    it(`${JSON.stringify(row.raw)} is ${row.cls}`, () => {
      const f = classify(row.raw);
      assert.equal(f.class, row.cls);
      assert.equal(f.host, row.host ?? "");
      assert.equal(f.hasBackslash, row.bs ?? false);
      assert.equal(f.hasTabOrNewline, row.tab ?? false);
      assert.equal(f.hostUnrecoverable, row.lost ?? false);
    });
  }

  it("extracts scheme, port and userinfo as written", () => {
    assert.deepEqual(classify("HTTPS://user:pass@AnimeBytes.tv:65536/x"), {
      class: "absolute",
      trimmed: "HTTPS://user:pass@AnimeBytes.tv:65536/x",
      host: "animebytes.tv",
      scheme: "https",
      port: "65536",
      hasBackslash: false,
      hasTabOrNewline: false,
      hasUserInfo: true,
      hostUnrecoverable: false,
      scriptScheme: false,
    });
    const proto = classify("//user@animebytes.tv:8080/x");
    assert.deepEqual(
      [proto.class, proto.host, proto.port, proto.hasUserInfo],
      ["protocol-relative", "animebytes.tv", "8080", true],
    );
  });

  it("keeps backslashes in trimmed while reading them as slashes", () => {
    const f = classify("  http:\\\\evil.test\\x?a\\b  ");
    assert.equal(f.trimmed, "http:\\\\evil.test\\x?a\\b");
    assert.equal(f.host, "evil.test");
    assert.equal(f.hasBackslash, true);
  });

  it("removes embedded tab and newlines from trimmed, and only records interior ones", () => {
    assert.equal(classify("\thttps://a.test/\n").hasTabOrNewline, false);
    const f = classify("https://a.\r\ntest/\tx");
    assert.equal(f.trimmed, "https://a.test/x");
    assert.equal(f.hasTabOrNewline, true);
  });

  it("records backslash and smuggling facts on malformed strings, and no parse facts", () => {
    const f = classify("https://a\t\\b\u0001/");
    assert.equal(f.class, "malformed");
    assert.deepEqual(
      [f.hasBackslash, f.hasTabOrNewline, f.host, f.scheme, f.port, f.hasUserInfo],
      [true, true, "", "", "", false],
    );
  });

  it("never folds U+0130 or U+212A into ASCII, so the homograph fails isAsciiHost", () => {
    for (const raw of [
      "https://an\u0130mebytes.tv/torrents.php?id=1",
      "an\u0130mebytes.tv/torrents.php?id=1",
      "https://rutrac\u212Aer.org/forum/viewtopic.php?t=1",
      "HTTPS://\u0130.TEST/",
    ]) {
      const f = classify(raw);
      assert.notEqual(f.host, "", raw);
      assert.equal(isAsciiHost(f.host), false, raw);
      assert.ok(!/[A-Z]/.test(f.host), raw);
    }
    assert.equal(classify("HTTPS://\u0130.TEST/").host, "\u0130.test");
  });

  it("is total on hostile inputs", () => {
    for (const raw of [
      "\ud800",
      "%",
      "[",
      "]",
      "@",
      ":",
      "//[",
      "http://[",
      "http://[::1",
      "\\",
      "#%",
      "?",
    ]) {
      assert.doesNotThrow(() => classify(raw));
    }
    assert.equal(classify("a".repeat(200_000)).class, "schemeless-host");
  });

  it("is exported from the package entry", () => {
    assert.equal(pkg.classify, classify);
    assert.equal(pkg.isAsciiHost, isAsciiHost);
  });
});

describe("isAsciiHost()", () => {
  it("accepts ASCII hosts, including the empty one", () => {
    assert.equal(isAsciiHost("example.com"), true);
    assert.equal(isAsciiHost("::1"), true);
    assert.equal(isAsciiHost(""), true);
    assert.equal(isAsciiHost("\u007f"), true);
  });
  it("rejects any non-ASCII code unit", () => {
    assert.equal(isAsciiHost("ex\u0430mple.com"), false);
    assert.equal(isAsciiHost("\u0080"), false);
    assert.equal(isAsciiHost("a\ud800"), false);
    assert.equal(isAsciiHost("\u212a.test"), false);
  });
});
