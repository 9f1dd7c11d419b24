import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classify } from "../../src/classify/classify.js";
import { classifyFully } from "../../src/classify/classify-fully.js";
import { classifyCommonForm } from "../../src/classify/common-form.js";

describe("classifyCommonForm()", () => {
  it("takes scheme://host[:port] links and reads their facts", () => {
    assert.deepEqual(classifyCommonForm("HTTPS://Example.test:8080/a%2Fb?q=1#f%41"), {
      class: "absolute",
      trimmed: "HTTPS://Example.test:8080/a%2Fb?q=1#f%41",
      host: "example.test",
      scheme: "https",
      port: "8080",
      hasBackslash: false,
      hasTabOrNewline: false,
      hasUserInfo: false,
      hostUnrecoverable: false,
      scriptScheme: false,
    });
    assert.deepEqual(
      ((f) => f && [f.scheme, f.host, f.port, f.scriptScheme])(classifyCommonForm("JavaScript://a-b.0:?x")),
      ["javascript", "a-b.0", "", true],
    );
    for (const raw of [
      "https://a",
      "https://a#",
      "https://a?",
      "https://a/\u00e9 x",
      "wss://a:1/",
      "https://a/?q=\u00a0x",
    ])
      assert.notEqual(classifyCommonForm(raw), null, raw);
  });

  it("refuses whatever the full path would read differently, or it cannot prove", () => {
    for (const raw of [
      "",
      " https://a/", // edge space
      "https://a/\u00a0", // trailing White_Space
      "https://a/\t", // tab
      "https://a/?q\\", // a backslash, even in the query
      "https://a/?q\u0000", // a control, even in the query
      "https://a/\u007f",
      "https:/a/", // hidden host
      "https:a",
      "1a://a/", // not a scheme
      "https://", // empty host
      "https:///a",
      "https://:80/", // empty host name
      "https://u@a/", // userinfo
      "https://%41/", // escape in the host
      "https://[::1]/", // IP literal
      "https://\u00e9.test/", // non-ASCII host
      "https://a_b/", // legal for Go, outside the scan's set
      "https://a:b/", // not a port
      "https://a:1:2/", // a second colon
      "https://a:1x",
      "https://a/%4", // escapes in the path
      "https://a/%zz?",
      "https://a/#%4", // and in the fragment
      "https://a/?%zz", // and in the query, which url.Parse leaves alone: the full path decides
    ])
      assert.equal(classifyCommonForm(raw), null, JSON.stringify(raw));
    assert.equal(classify("https://a/?%zz").class, "absolute");
  });

  it("gives classify() the full path's answer on what it takes", () => {
    for (const raw of [
      "HTTPS://WWW.Example.COM:443/a?b#c",
      "javascript://a.test/%0a",
      "file://h/x",
      "ftp://a:/",
    ]) {
      assert.notEqual(classifyCommonForm(raw), null, raw);
      assert.deepEqual(classify(raw), classifyFully(raw), raw);
    }
  });
});
