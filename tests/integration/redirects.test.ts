import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isFetchError, isRedirectError, isSecurityError, isUrlError } from "../../src/errors/guards.js";
import { createClient } from "../../src/resolve/client.js";
import { resolve } from "../../src/resolve/one-shot.js";
import { redirect, routes, type Site, sendHtml, startSite, text } from "./site.js";

describe("redirects through resolve()", () => {
  let site: Site;
  before(async () => {
    const table: Record<string, ReturnType<typeof redirect>> = {
      "/final": text("done"),
      "/dir/sub/final": text("done"),
      "/q?x=2": text("done"),
      "/no-location": (_q, r) => {
        r.writeHead(302);
        r.end();
      },
      "/bad-location": (_q, r) => {
        r.writeHead(301, { location: "http://[::1" });
        r.end();
      },
      "/ftp": redirect("ftp://a.test/file"),
      "/abs": redirect(""), // replaced below once the port is known
      "/proto": redirect(""),
      "/root": redirect("/final"),
      "/dir/sub/path": redirect("final"),
      "/dir/sub/dots": redirect("../sub/./final"),
      "/q?x=1": redirect("?x=2"),
      "/loop-a": redirect("/loop-b"),
      "/loop-b": redirect("/loop-a"),
      "/self": redirect("/self"),
      "/self-variant": redirect("/SELF-variant/../self-variant"),
      "/utm": redirect("/landing?utm_source=mail&b=2&a=1"),
      "/landing?utm_source=mail&b=2&a=1": text("landing"),
      "/gone": (_q, r) => {
        r.writeHead(410, { "content-type": "text/plain" });
        r.end("gone");
      },
      "/to-gone": redirect("/gone"),
      "/server-error": (_q, r) => {
        r.writeHead(500);
        r.end();
      },
      "/not-modified": (_q, r) => {
        r.writeHead(304);
        r.end();
      },
    };
    for (const status of [301, 302, 303, 307, 308]) table[`/s${status}`] = redirect("/final", status);
    for (let i = 0; i < 12; i++) table[`/chain${i}`] = redirect(`/chain${i + 1}`);
    table["/chain12"] = text("end of chain");
    site = await startSite((request, response) => {
      if (request.url === "/abs") return redirect(site.url("/final", "b.test"))(request, response);
      if (request.url === "/proto") return redirect(`//c.test:${site.server.port}/final`)(request, response);
      return routes(table)(request, response);
    });
  });
  after(() => site.close());

  for (const status of [301, 302, 303, 307, 308]) {
    it(`follows ${status} and records method and status per hop`, async () => {
      const result = await resolve(site.url(`/s${status}`), site.options());
      assert.equal(result.url, site.url("/final"));
      assert.equal(result.source, "redirect");
      assert.equal(result.status, 200);
      assert.equal(result.verified, true);
      assert.deepEqual(result.chain, [
        { url: site.url(`/s${status}`), via: "initial", method: "HEAD", status },
        { url: site.url("/final"), via: "redirect", method: "HEAD", status: 200 },
      ]);
    });
  }

  const forms: Array<[string, string, string]> = [
    ["absolute", "/abs", "/final@b.test"],
    ["protocol-relative", "/proto", "/final@c.test"],
    ["root-relative", "/root", "/final@a.test"],
    ["path-relative", "/dir/sub/path", "/dir/sub/final@a.test"],
    ["dot segments", "/dir/sub/dots", "/dir/sub/final@a.test"],
    ["query-only", "/q?x=1", "/q?x=2@a.test"],
  ];
  for (const [name, from, expected] of forms) {
    it(`resolves a ${name} Location against the request URL`, async () => {
      const [path, host] = expected.split("@") as [string, string];
      const result = await resolve(site.url(from), site.options({ preset: "rfc3986" }));
      assert.equal(result.url, site.url(path, host));
      assert.equal(result.chain.length, 2);
    });
  }

  it("fails with invalid-location when Location is missing or unusable", async () => {
    for (const path of ["/no-location", "/bad-location"]) {
      await assert.rejects(
        resolve(site.url(path), site.options()),
        (e) => isRedirectError(e) && e.code === "invalid-location" && e.message.includes(site.url(path)),
      );
    }
  });

  it("fails with unsupported-scheme for a redirect outside http(s)", async () => {
    await assert.rejects(
      resolve(site.url("/ftp"), site.options()),
      (e) => isUrlError(e) && e.code === "unsupported-scheme",
    );
  });

  it("raises redirect-loop for a cycle with nothing fetched successfully", async () => {
    await assert.rejects(
      resolve(site.url("/loop-a"), site.options()),
      (e) => isRedirectError(e) && e.code === "redirect-loop",
    );
    await assert.rejects(
      resolve(site.url("/self"), site.options()),
      (e) => isRedirectError(e) && e.code === "redirect-loop",
    );
  });

  it("compares normalized URLs: a redirect to a spelling of the same URL is a loop", async () => {
    await assert.rejects(
      resolve(site.url("/self-variant"), site.options()),
      (e) => isRedirectError(e) && e.code === "redirect-loop",
    );
  });

  it("raises too-many-hops past maxHops, and follows exactly maxHops", async () => {
    await assert.rejects(
      resolve(site.url("/chain0"), site.options()),
      (e) => isRedirectError(e) && e.code === "too-many-hops",
    );
    const ok = await resolve(site.url("/chain9"), site.options({ maxHops: 3 }));
    assert.equal(ok.url, site.url("/chain12"));
    assert.equal(ok.chain.length, 4);
    await assert.rejects(
      resolve(site.url("/chain8"), site.options({ maxHops: 3 })),
      (e) => isRedirectError(e) && e.code === "too-many-hops",
    );
    await assert.rejects(
      resolve(site.url("/root"), site.options({ maxHops: 0 })),
      (e) => isRedirectError(e) && e.code === "too-many-hops",
    );
  });

  it("fails other statuses with http-status, keeping the status", async () => {
    for (const [path, status] of [
      ["/gone", 410],
      ["/to-gone", 410],
      ["/server-error", 500],
      ["/not-modified", 304],
    ] as const) {
      await assert.rejects(
        resolve(site.url(path), site.options()),
        (e) => isFetchError(e) && e.code === "http-status" && e.status === status,
        path,
      );
    }
  });

  it("sends the final URL through the identity preset; the chain keeps the query verbatim", async () => {
    const result = await resolve(site.url("/utm"), site.options());
    assert.equal(result.url, site.url("/landing?a=1&b=2"));
    assert.deepEqual(result.paramsStripped, ["utm_source"]);
    assert.equal(result.chain[1]?.url, site.url("/landing?utm_source=mail&b=2&a=1"));
  });

  it("trims and normalizes the input before the first request", async () => {
    const port = site.server.port;
    const result = await resolve(`  HTTP://A.TEST:${port}/x/../final#frag  `, site.options());
    assert.equal(result.chain[0]?.url, site.url("/final"));
    assert.equal(result.original, `  HTTP://A.TEST:${port}/x/../final#frag  `);
    const schemeless = await resolve(`a.test:${port}/final`, site.options());
    assert.equal(schemeless.chain[0]?.url, site.url("/final"));
  });

  it("rejects unusable input before any request", async () => {
    const before = site.server.requests;
    await assert.rejects(
      resolve("ftp://a.test/x", site.options()),
      (e) => isUrlError(e) && e.code === "unsupported-scheme",
    );
    await assert.rejects(
      resolve("http://[::1", site.options()),
      (e) => isUrlError(e) && e.code === "invalid-url",
    );
    assert.equal(site.server.requests, before);
  });

  it("refuses userinfo and ports outside allowedPorts before connecting", async () => {
    const before = site.server.connections;
    await assert.rejects(
      resolve(site.url("/final").replace("//", "//user:pw@"), site.options()),
      (e) => isSecurityError(e) && e.code === "userinfo",
    );
    await assert.rejects(
      resolve(site.url("/final"), site.options({ allowedPorts: [80, 443] })),
      (e) => isSecurityError(e) && e.code === "blocked-port",
    );
    assert.equal(site.server.connections, before);
  });

  it("a redirect that leads to HTML continues with canonical discovery", async () => {
    const inner = await startSite(
      routes({
        "/start": redirect("/page"),
        "/page": (_q, r) => sendHtml(r, '<link rel="canonical" href="/canon">'),
        "/canon": text("canonical"),
      }),
    );
    try {
      const client = createClient(inner.options());
      const result = await client.resolve(inner.url("/start"));
      await client.close();
      assert.equal(result.url, inner.url("/canon"));
      assert.equal(result.source, "canonical-link");
      assert.deepEqual(
        result.chain.map((h) => [h.via, h.method, h.status]),
        [
          ["initial", "HEAD", 301],
          ["redirect", "GET", 200],
          ["canonical-link", "HEAD", 200],
        ],
      );
    } finally {
      await inner.close();
    }
  });
});
