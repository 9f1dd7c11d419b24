import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explain, normalize } from "../../src/index.js";
import { removeDirectoryIndex } from "../../src/url/directory-index.js";

// Issue 22, item 7: normalize-url's options, opt-in; session ids removed by the identity preset.
describe("normalize-url's habits, opt-in", () => {
  it("forceHttps upgrades http (dropping an explicit :443), off by default", () => {
    assert.equal(normalize("http://example.com/a"), "http://example.com/a");
    assert.equal(normalize("http://example.com/a", { forceHttps: true }), "https://example.com/a");
    assert.equal(normalize("http://example.com:443/a", { forceHttps: true }), "https://example.com/a");
    assert.equal(normalize("http://example.com:8080/a", { forceHttps: true }), "https://example.com:8080/a");
  });

  it("stripWWW drops www. before a name of two labels, off by default", () => {
    assert.equal(normalize("https://www.example.com/a"), "https://www.example.com/a");
    assert.equal(normalize("https://www.example.com/a", { stripWWW: true }), "https://example.com/a");
    assert.equal(normalize("https://www.com/a", { stripWWW: true }), "https://www.com/a");
    assert.equal(normalize("https://www2.example.com/a", { stripWWW: true }), "https://www2.example.com/a");
  });

  it("removeDirectoryIndex drops index and default documents only, off by default", () => {
    assert.equal(normalize("https://example.com/a/index.html"), "https://example.com/a/index.html");
    assert.equal(
      normalize("https://example.com/a/index.html", { removeDirectoryIndex: true }),
      "https://example.com/a",
    );
    assert.equal(
      normalize("https://example.com/default.aspx?x=1", { removeDirectoryIndex: true }),
      "https://example.com/?x=1",
    );
    assert.equal(removeDirectoryIndex("/docs/INDEX.PHP"), "/docs/");
    assert.equal(removeDirectoryIndex("/docs/index.rst"), "/docs/index.rst");
    assert.equal(removeDirectoryIndex("/index.html/x"), "/index.html/x");
  });

  it("all three together are idempotent", () => {
    const opts = { forceHttps: true, stripWWW: true, removeDirectoryIndex: true };
    for (const url of ["http://www.example.com/a/index.htm?b=1", "HTTP://WWW.Example.com:443/index.php"]) {
      const once = normalize(url, opts);
      assert.equal(normalize(once, opts), once, url);
    }
  });

  it("each is validated, the TypeError naming it", () => {
    for (const name of ["forceHttps", "stripWWW", "removeDirectoryIndex", "removeSessionIds"])
      assert.throws(() => normalize("https://a.test/", { [name]: "yes" }), new RegExp(`"${name}"`));
  });
});

describe("session ids (removeSessionIds: identity true, rfc3986 false)", () => {
  it("removes ;jsessionid=, PHPSESSID, ASPSESSIONID…, CFID/CFTOKEN and reports them", () => {
    assert.equal(
      normalize("https://shop.example/cart;jsessionid=0A1B2C3D4E?item=2"),
      "https://shop.example/cart?item=2",
    );
    const e = explain("https://forum.example/index.php?PHPSESSID=0123456789abcdefghijklmnopqrstuv&topic=5");
    assert.equal(e.canonical, "https://forum.example/index.php?topic=5");
    assert.deepEqual(e.paramsStripped, ["PHPSESSID"]);
    assert.equal(
      normalize("https://old.example/page.asp?ASPSESSIONIDQSRTBCAD=ABCDEFGHIJKLMNOPQRSTUVWX&id=3"),
      "https://old.example/page.asp?id=3",
    );
    assert.equal(
      normalize("https://cf.example/a.cfm?CFID=123&CFTOKEN=456&x=1"),
      "https://cf.example/a.cfm?x=1",
    );
    // Two sessions of one page are one key.
    assert.equal(
      normalize("https://s.example/p;jsessionid=A"),
      normalize("https://s.example/p;jsessionid=B"),
    );
  });

  it("keeps them with removeSessionIds: false and in the rfc3986 preset", () => {
    const url = "https://shop.example/cart;jsessionid=0A1B2C3D4E?item=2";
    assert.equal(normalize(url, { removeSessionIds: false }), url);
    assert.equal(normalize(url, { preset: "rfc3986" }), url);
  });

  it("a plain sid of another length, or a session-looking path, is left alone", () => {
    assert.equal(normalize("https://a.example/x?sid=12"), "https://a.example/x?sid=12");
    assert.equal(normalize("https://a.example/jsessionid=x"), "https://a.example/jsessionid=x");
  });

  it("hostile input stays linear and bounded (64 KB of session-id look-alikes)", () => {
    const path = `/a${";jsessionid=".repeat(3000)}`;
    const query = "cfid=".repeat(5000);
    const out = normalize(`https://h.example${path}?${query}`);
    assert.ok(out.length <= 65_536);
    assert.ok(!out.includes(";jsessionid="));
  });
});
