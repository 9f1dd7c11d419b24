import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import {
  isCanonError,
  isFetchError,
  isResponseTooLargeError,
  isTimeoutError,
} from "../../src/errors/guards.js";
import { createClient } from "../../src/resolve/client.js";
import { resolve } from "../../src/resolve/one-shot.js";
import { type Handler, redirect, routes, type Site, startSite, text } from "./site.js";

const CANON_HEAD = '<html><head><link rel="canonical" href="/canon"></head><body>';

function compressed(encoding: string, body: Buffer): Handler {
  return (request, response) => {
    response.writeHead(200, { "content-type": "text/html", "content-encoding": encoding });
    response.end(request.method === "GET" ? body : undefined);
  };
}

describe("limits and failures through resolve()", () => {
  let site: Site;
  const bombBytes = 64 * 1024 * 1024;
  let bombWritten = 0;
  const neverClosed: number[] = [];
  before(async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from("<html><head><title>"), Buffer.alloc(bombBytes, 0x61)]));
    site = await startSite(
      routes({
        "/canon": text(),
        "/slow-hop/0": (_q, r) => setTimeout(() => redirect("/slow-hop/1")(_q, r), 300),
        "/slow-hop/1": (_q, r) => setTimeout(() => redirect("/slow-hop/2")(_q, r), 300),
        "/slow-hop/2": (_q, r) => setTimeout(() => redirect("/slow-hop/3")(_q, r), 300),
        "/slow-hop/3": (_q, r) => setTimeout(() => text()(_q, r), 300),
        "/slow-headers": (_q, r) => setTimeout(() => text()(_q, r), 3000),
        "/never": (request) => {
          // Never answers; records when the client gives the connection up.
          request.socket.once("close", () => neverClosed.push(performance.now()));
        },
        "/slow-body": (request, response) => {
          response.writeHead(200, { "content-type": "text/html" });
          if (request.method === "HEAD") return response.end();
          response.write("<html><head><title>");
          // Never finishes the head; the server keeps the connection open.
        },
        "/reset-mid-body": (request, response) => {
          response.writeHead(200, { "content-type": "text/html" });
          if (request.method === "HEAD") return response.end();
          response.write("<html><head><title>partial");
          setTimeout(() => response.socket?.destroy(), 20);
        },
        "/reset-before-status": (request) => {
          request.socket.destroy();
        },
        "/huge-head": (request, response) => {
          response.writeHead(200, { "content-type": "text/html" });
          if (request.method === "HEAD") return response.end();
          response.end(`<html><head><title>${"x".repeat(200_000)}</title></head><body></body></html>`);
        },
        "/endless-plain": (request, response) => {
          // HEAD refused, then a GET body that never ends and is not HTML: it must not be waited for.
          if (request.method === "HEAD") {
            response.writeHead(405);
            return response.end();
          }
          response.writeHead(200, { "content-type": "application/octet-stream" });
          response.write(Buffer.alloc(1024));
        },
        "/untyped-endless": (request, response) => {
          response.writeHead(200);
          if (request.method === "HEAD") return response.end();
          response.write(Buffer.alloc(1024));
        },
        "/gzip": compressed("gzip", gzipSync(CANON_HEAD)),
        "/deflate": compressed("deflate", deflateSync(CANON_HEAD)),
        "/br": compressed("br", brotliCompressSync(CANON_HEAD)),
        "/gzip-then-br": compressed("gzip, br", brotliCompressSync(gzipSync(CANON_HEAD))),
        "/unknown-coding": compressed("zstd", Buffer.from("\x28\xb5\x2f\xfd")),
        "/corrupt-gzip": compressed("gzip", Buffer.from("this is not gzip at all, not even close")),
        "/gzip-bomb": (request, response) => {
          response.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
          if (request.method === "HEAD") return response.end();
          bombWritten = bomb.length;
          response.end(bomb);
        },
        "/echo-encoding": (request, response) => {
          response.writeHead(200, {
            "content-type": "text/plain",
            "x-seen-accept-encoding": String(request.headers["accept-encoding"]),
          });
          response.end();
        },
      }),
    );
  });
  after(() => site.close());

  it("enforces one total deadline across hops, though every hop is quick enough", async () => {
    const started = performance.now();
    await assert.rejects(
      resolve(site.url("/slow-hop/0"), site.options({ totalTimeoutMs: 500, readTimeoutMs: 1000 })),
      (e) => isTimeoutError(e) && e.message.includes("/slow-hop/"),
    );
    const elapsed = performance.now() - started;
    // Well before the 1200 ms the four hops need together.
    assert.ok(elapsed < 1100, `took ${elapsed} ms`);
    // The same chain passes with a deadline that covers all four hops.
    const ok = await resolve(site.url("/slow-hop/0"), site.options({ totalTimeoutMs: 3000 }));
    assert.equal(ok.chain.length, 4);
  });

  it("the total deadline aborts the request in flight, not only the wait for it", async () => {
    // A client kept open: closing it would close the connection anyway.
    const client = createClient(site.options({ totalTimeoutMs: 200, readTimeoutMs: 10_000 }));
    try {
      await assert.rejects(client.resolve(site.url("/never")), isTimeoutError);
      // The read timeout is far away: only the deadline's abort reaching the exchange closes the
      // connection while the client stays open.
      for (let waited = 0; neverClosed.length === 0 && waited < 2000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(neverClosed.length, 1, "the server still holds the connection");
    } finally {
      await client.close();
    }
  });

  it("times out waiting for slow response headers (read timeout)", async () => {
    const started = performance.now();
    await assert.rejects(resolve(site.url("/slow-headers"), site.options({ readTimeoutMs: 200 })), (e) => {
      return isTimeoutError(e) && e.cause !== undefined;
    });
    assert.ok(performance.now() - started < 2000);
  });

  it("times out on a body that stalls inside the head", async () => {
    await assert.rejects(
      resolve(site.url("/slow-body"), site.options({ readTimeoutMs: 200 })),
      isTimeoutError,
    );
    await assert.rejects(
      resolve(site.url("/slow-body"), site.options({ totalTimeoutMs: 300, readTimeoutMs: 10_000 })),
      isTimeoutError,
    );
  });

  it("maps a reset mid-body or before the status to connection-failed with a cause", async () => {
    for (const path of ["/reset-mid-body", "/reset-before-status"]) {
      await assert.rejects(
        resolve(site.url(path), site.options()),
        (e) =>
          isFetchError(e) &&
          e.code === "connection-failed" &&
          e.cause !== undefined &&
          e.message.includes(path),
        path,
      );
    }
  });

  it("raises response-too-large for a head that does not end within maxBodyBytes", async () => {
    await assert.rejects(
      resolve(site.url("/huge-head"), site.options({ maxBodyBytes: 50_000 })),
      (e) => isResponseTooLargeError(e) && e.message.includes("/huge-head"),
    );
    // The default limit (1 MiB) holds it.
    assert.equal((await resolve(site.url("/huge-head"), site.options())).url, site.url("/huge-head"));
  });

  it("never reads a body it does not need", async () => {
    const started = performance.now();
    assert.equal((await resolve(site.url("/endless-plain"), site.options())).url, site.url("/endless-plain"));
    const untyped = await resolve(site.url("/untyped-endless"), site.options({ readTimeoutMs: 5000 }));
    assert.equal(untyped.chain[0]?.method, "GET");
    assert.ok(performance.now() - started < 2000);
  });

  for (const path of ["/gzip", "/deflate", "/br", "/gzip-then-br"]) {
    it(`inflates a ${path.slice(1)} body to read its head`, async () => {
      assert.equal((await resolve(site.url(path), site.options())).url, site.url("/canon"));
    });
  }

  it("asks for identity encoding", async () => {
    const result = await resolve(site.url("/echo-encoding"), site.options());
    assert.equal(result.headers["x-seen-accept-encoding"], "identity");
  });

  it("leaves a body in an unknown coding unread", async () => {
    assert.equal(
      (await resolve(site.url("/unknown-coding"), site.options())).url,
      site.url("/unknown-coding"),
    );
  });

  it("fails a corrupt compressed body as a CanonError, not a raw zlib error", async () => {
    await assert.rejects(
      resolve(site.url("/corrupt-gzip"), site.options()),
      (e) => isCanonError(e) && e.cause !== undefined,
    );
  });

  it("stops inflating a gzip bomb at maxBodyBytes", async () => {
    const before = process.memoryUsage().rss;
    const started = performance.now();
    await assert.rejects(
      resolve(site.url("/gzip-bomb"), site.options({ maxBodyBytes: 100_000 })),
      isResponseTooLargeError,
    );
    assert.ok(bombWritten > 0 && bombWritten < bombBytes / 100, "the bomb was served compressed");
    assert.ok(performance.now() - started < 2000);
    assert.ok(process.memoryUsage().rss - before < bombBytes / 2, "the bomb was not inflated whole");
  });
});
