import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isFetchError } from "../../src/errors/guards.js";
import { resolve } from "../../src/resolve/one-shot.js";
import type { ClientOptions, Trace } from "../../src/resolve/types.js";
import { type Handler, redirect, routes, type Site, sendHtml, startSite, text } from "./site.js";

function withTrace(options: ClientOptions): { options: ClientOptions; trace: () => Trace } {
  let seen: Trace | undefined;
  return {
    options: { ...options, hooks: { onComplete: (t) => (seen = t) } },
    trace: () => {
      assert.ok(seen, "onComplete was not called");
      return seen;
    },
  };
}

const html =
  (head: string, headers: Record<string, string> = {}): Handler =>
  (_q, r) =>
    sendHtml(r, head, headers);

describe("canonical links through resolve()", () => {
  let site: Site;
  let closedPort: number;
  before(async () => {
    site = await startSite((request, response) => {
      const port = site.server.port;
      const table: Record<string, Handler> = {
        "/canon": text("the canonical"),
        "/header": (_q, r) => {
          r.writeHead(200, { "content-type": "text/html", link: '</canon>; rel="canonical"' });
          r.end("<head><link rel=canonical href=/from-body></head>");
        },
        "/html": html('<link rel="canonical" href="/canon">'),
        "/both": (_q, r) =>
          sendHtml(r, '<link rel="canonical" href="/from-body">', { link: "</canon>; rel=canonical" }),
        "/get-only-link": (q, r) => {
          const headers: Record<string, string> = { "content-type": "text/html" };
          if (q.method === "GET") headers.link = "</canon>; rel=canonical";
          r.writeHead(200, headers);
          r.end("<head></head>");
        },
        "/png": (_q, r) => {
          r.writeHead(200, { "content-type": "image/png", link: "</x>; rel=preload" });
          r.end("\x89PNG");
        },
        "/untyped": (_q, r) => {
          r.writeHead(200);
          r.end("<head><link rel=canonical href=/canon></head>");
        },
        "/plain-with-link": text("<head><link rel=canonical href=/canon></head>", "text/plain"),
        "/xhtml": text(
          "<head><link rel=canonical href=/canon /></head>",
          "Application/XHTML+XML; charset=utf-8",
        ),
        "/xml": text("<head><link rel=canonical href=/canon /></head>", "application/xml"),
        "/base": html('<base href="/dir/"><link rel="canonical" href="canon">'),
        "/dir/canon": text("in dir"),
        "/body-only": (_q, r) => {
          r.writeHead(200, { "content-type": "text/html" });
          r.end(
            '<html><head><title>x</title></head><body><link rel="canonical" href="/canon"></body></html>',
          );
        },
        "/self": html(`<link rel="canonical" href="http://A.TEST:${port}/./self#top">`),
        "/to-404": html('<link rel="canonical" href="/missing">'),
        "/to-closed": html(`<link rel="canonical" href="http://a.test:${closedPort}/x">`),
        "/to-ftp": html('<link rel="canonical" href="ftp://a.test/x">'),
        "/to-blocked": html(`<link rel="canonical" href="http://evil.test:${port}/canon">`),
        "/to-unknown-name": html(`<link rel="canonical" href="http://nowhere.test:${port}/canon">`),
        "/to-www": html(`<link rel="canonical" href="http://www.a.test:${port}/canon">`),
        "/to-other-site": html(`<link rel="canonical" href="http://b.test:${port}/canon">`),
        "/cycle-a": html('<link rel="canonical" href="/cycle-b">'),
        "/cycle-b": html('<link rel="canonical" href="/cycle-a">'),
        "/c1": html('<link rel="canonical" href="/c2">'),
        "/c2": html('<link rel="canonical" href="/c3">'),
        "/c3": html('<link rel="canonical" href="/c3">'),
        "/to-redirecting": html('<link rel="canonical" href="/moved">'),
        "/moved": redirect("/canon"),
        "/multi": (_q, r) => {
          r.setHeader("x-multi", ["one", "two"]);
          r.writeHead(200, { "content-type": "text/plain" });
          r.end();
        },
      };
      for (const status of [403, 405, 501]) {
        table[`HEAD /refuse${status}`] = (_q, r) => {
          r.writeHead(status);
          r.end();
        };
        table[`GET /refuse${status}`] = html('<link rel="canonical" href="/canon">');
      }
      table["HEAD /refuse-then-404"] = (_q, r) => {
        r.writeHead(405);
        r.end();
      };
      table["GET /refuse-then-404"] = (_q, r) => {
        r.writeHead(404);
        r.end();
      };
      routes(table)(request, response);
    });
    const closed = await startSite(text());
    closedPort = closed.server.port;
    await closed.close();
  });
  after(() => site.close());

  const opts = (extra: ClientOptions = {}) =>
    site.options({ allowedPorts: [site.server.port, closedPort], ...extra });

  it("follows a Link header canonical from the HEAD response without a GET", async () => {
    site.log.length = 0;
    const result = await resolve(site.url("/header"), opts());
    assert.equal(result.url, site.url("/canon"));
    assert.equal(result.source, "canonical-link");
    assert.deepEqual(site.log, ["HEAD a.test/header", "HEAD a.test/canon"]);
  });

  it("reads the head with a GET when an HTML response has no header hint", async () => {
    site.log.length = 0;
    const result = await resolve(site.url("/html"), opts());
    assert.equal(result.url, site.url("/canon"));
    assert.deepEqual(site.log, ["HEAD a.test/html", "GET a.test/html", "HEAD a.test/canon"]);
    assert.deepEqual(result.chain[0], { url: site.url("/html"), via: "initial", method: "GET", status: 200 });
  });

  it("lets the header win over the document", async () => {
    assert.equal((await resolve(site.url("/both"), opts())).url, site.url("/canon"));
  });

  it("reads a Link header that only the GET response carries", async () => {
    assert.equal((await resolve(site.url("/get-only-link"), opts())).url, site.url("/canon"));
  });

  for (const status of [403, 405, 501]) {
    it(`retries a HEAD answered ${status} once as GET`, async () => {
      site.log.length = 0;
      const result = await resolve(site.url(`/refuse${status}`), opts());
      assert.equal(result.url, site.url("/canon"));
      assert.deepEqual(site.log.slice(0, 2), [`HEAD a.test/refuse${status}`, `GET a.test/refuse${status}`]);
      assert.equal(result.chain[0]?.method, "GET");
      assert.equal(result.chain[0]?.status, 200);
    });
  }

  it("does not retry a failing GET", async () => {
    site.log.length = 0;
    await assert.rejects(
      resolve(site.url("/refuse-then-404"), opts()),
      (e) => isFetchError(e) && e.code === "http-status" && e.status === 404,
    );
    assert.deepEqual(site.log, ["HEAD a.test/refuse-then-404", "GET a.test/refuse-then-404"]);
  });

  it("sends no GET for a response that is clearly not HTML", async () => {
    site.log.length = 0;
    const result = await resolve(site.url("/png"), opts());
    assert.equal(result.source, "initial");
    assert.deepEqual(site.log, ["HEAD a.test/png"]);
  });

  it("GETs an untyped response but parses only HTML media types", async () => {
    site.log.length = 0;
    assert.equal((await resolve(site.url("/untyped"), opts())).url, site.url("/untyped"));
    assert.deepEqual(site.log, ["HEAD a.test/untyped", "GET a.test/untyped"]);
    assert.equal((await resolve(site.url("/plain-with-link"), opts())).url, site.url("/plain-with-link"));
    assert.equal((await resolve(site.url("/xml"), opts())).url, site.url("/xml"));
    assert.equal((await resolve(site.url("/xhtml"), opts())).url, site.url("/canon"));
  });

  it("resolves an HTML canonical against <base href>", async () => {
    assert.equal((await resolve(site.url("/base"), opts())).url, site.url("/dir/canon"));
  });

  it("ignores a canonical that only the body declares", async () => {
    const result = await resolve(site.url("/body-only"), opts());
    assert.equal(result.url, site.url("/body-only"));
    assert.equal(result.source, "initial");
  });

  it("takes a canonical that normalizes to the current URL as confirmation, with no request", async () => {
    site.log.length = 0;
    const result = await resolve(site.url("/self"), opts());
    assert.equal(result.url, site.url("/self"));
    assert.equal(result.source, "initial");
    assert.equal(result.verified, true);
    assert.deepEqual(site.log, ["HEAD a.test/self", "GET a.test/self"]);
  });

  it("returns a canonical that answers 404 unverified, confirmed by its declarer", async () => {
    const result = await resolve(site.url("/to-404"), opts());
    assert.equal(result.url, site.url("/missing"));
    assert.equal(result.verified, false);
    assert.equal(result.source, "canonical-link");
    assert.equal(result.status, 200);
    assert.match(result.headers["content-type"] ?? "", /text\/html/);
    assert.deepEqual(result.chain[1], {
      url: site.url("/missing"),
      via: "canonical-link",
      method: "HEAD",
      status: 404,
    });
  });

  it("returns a canonical that cannot be connected to unverified", async () => {
    const result = await resolve(site.url("/to-closed"), opts());
    assert.equal(result.url, `http://a.test:${closedPort}/x`);
    assert.equal(result.verified, false);
    assert.equal(result.chain[1]?.status, null);
  });

  it("returns a canonical whose name does not resolve unverified", async () => {
    const result = await resolve(site.url("/to-unknown-name"), opts());
    assert.equal(result.verified, false);
    assert.equal(result.url, site.url("/canon", "nowhere.test"));
  });

  it("ignores a non-http canonical and records it", async () => {
    const { options, trace } = withTrace(opts());
    const result = await resolve(site.url("/to-ftp"), options);
    assert.equal(result.url, site.url("/to-ftp"));
    assert.deepEqual(trace().droppedHints, [{ url: "ftp://a.test/x", reason: "unsupported-scheme" }]);
  });

  it("drops a canonical that breaks the address policy and never returns or dials it", async () => {
    site.log.length = 0;
    const { options, trace } = withTrace(site.options({}, { "evil.test": ["127.0.0.2"] }));
    const result = await resolve(site.url("/to-blocked"), options);
    assert.equal(result.url, site.url("/to-blocked"));
    assert.equal(result.verified, true);
    assert.equal(result.source, "initial");
    assert.deepEqual(trace().droppedHints, [
      { url: site.url("/canon", "evil.test"), reason: "blocked-address" },
    ]);
    assert.ok(!site.log.some((line) => line.includes("evil.test")));
  });

  it("follows only same-site canonicals with canonicalLinks: same-site", async () => {
    const sameSite = opts({ canonicalLinks: "same-site" });
    assert.equal((await resolve(site.url("/to-www"), sameSite)).url, site.url("/canon", "www.a.test"));
    const { options, trace } = withTrace(sameSite);
    assert.equal((await resolve(site.url("/to-other-site"), options)).url, site.url("/to-other-site"));
    assert.equal(trace().droppedHints[0]?.reason, "cross-site");
    assert.equal((await resolve(site.url("/to-other-site"), opts())).url, site.url("/canon", "b.test"));
  });

  it("follows none with canonicalLinks: off, and needs no GET", async () => {
    site.log.length = 0;
    const result = await resolve(site.url("/header"), opts({ canonicalLinks: "off" }));
    assert.equal(result.url, site.url("/header"));
    assert.deepEqual(site.log, ["HEAD a.test/header"]);
  });

  it("ends a canonical cycle with the last response fetched successfully", async () => {
    const result = await resolve(site.url("/cycle-a"), opts());
    assert.equal(result.url, site.url("/cycle-b"));
    assert.equal(result.verified, true);
  });

  it("follows a chain of canonicals to one that confirms itself", async () => {
    const result = await resolve(site.url("/c1"), opts());
    assert.equal(result.url, site.url("/c3"));
    assert.equal(result.chain.length, 3);
    assert.ok(result.chain.every((hop, i) => hop.via === (i === 0 ? "initial" : "canonical-link")));
  });

  it("shares the hop budget: an exhausted budget returns the last good response", async () => {
    const result = await resolve(site.url("/c1"), opts({ maxHops: 1 }));
    assert.equal(result.url, site.url("/c2"));
    assert.equal(result.chain.length, 2);
  });

  it("follows a redirect from a declared canonical", async () => {
    const result = await resolve(site.url("/to-redirecting"), opts());
    assert.equal(result.url, site.url("/canon"));
    assert.deepEqual(
      result.chain.map((hop) => hop.via),
      ["initial", "canonical-link", "redirect"],
    );
  });

  it("reports the confirming response's headers, repeated fields joined", async () => {
    const result = await resolve(site.url("/multi"), opts());
    assert.equal(result.headers["x-multi"], "one, two");
    assert.equal(result.headers["content-type"], "text/plain");
  });
});
