import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isCanonError } from "../../src/errors/guards.js";
import type { TransportRequest, TransportResponse } from "../../src/resolve/http/transport.js";
import { createClient, createPinnedTransport } from "../../src/resolve/lazy-client.js";
import type { Outcome } from "../../src/resolve/types.js";
import { redirect, routes, type Site, startSite, text } from "../integration/site.js";

// The Node entry's resolver is a shell that loads the engine on first use (lazy-client.ts). These
// pin that the shell behaves as the engine does: same results, same closed-client failures, same
// synchronous validation. (tests/package/lazy-load.test.ts pins what it does not load.)
describe("the lazy client shell", () => {
  let site: Site;
  before(async () => {
    site = await startSite(
      routes({ "/old?utm_source=x": redirect("/new/?id=1"), "/new/?id=1": text(), "/b": text() }),
    );
  });
  after(() => site.close());

  it("resolves through the engine it loads", async () => {
    const client = createClient(site.options());
    try {
      const r = await client.resolve(site.url("/old?utm_source=x"));
      assert.equal(r.url, site.url("/new?id=1"));
      assert.equal(r.source, "redirect");
      assert.equal(await client.canonicalize(site.url("/b")), site.url("/b"));
      const outcomes: Outcome[] = [];
      for await (const o of client.resolveMany([site.url("/b"), "ftp://a.test/"], { concurrency: 2 }))
        outcomes.push(o);
      outcomes.sort((a, b) => a.index - b.index);
      assert.deepEqual(
        outcomes.map((o) => (o.ok ? o.result.url : o.error.code)),
        [site.url("/b"), "unsupported-scheme"],
      );
    } finally {
      await client.close();
    }
  });

  it("validates options and concurrency synchronously", () => {
    assert.throws(
      () => createClient({ maxHops: -1 }),
      (e) => e instanceof TypeError && /maxHops/.test(e.message),
    );
    const client = createClient();
    assert.ok(Object.isFrozen(client));
    assert.throws(() => client.resolveMany([], { concurrency: 0 }), TypeError);
    assert.throws(() => client.resolveMany([], { concurrency: 1.5 }), TypeError);
    return client.close();
  });

  it("a client closed before first use fails every call as a closed client", async () => {
    const client = createClient(site.options());
    const requestsBefore = site.log.length;
    await client.close();
    await assert.rejects(
      client.resolve(site.url("/b")),
      (e) => isCanonError(e) && e.code === "connection-failed",
    );
    const outcomes: Outcome[] = [];
    for await (const o of client.resolveMany([site.url("/b")])) outcomes.push(o);
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0]?.ok, false);
    assert.equal(site.log.length, requestsBefore, "a closed client sends nothing");
  });

  it("a close while the engine loads closes the engine it loaded", async () => {
    const client = createClient(site.options());
    const pending = client.resolve(site.url("/b")).then(
      (r) => r.url,
      (e: unknown) => (isCanonError(e) ? e.code : String(e)),
    );
    await client.close();
    // Either the resolution won the race or it saw a closed client; never a raw error or a hang.
    assert.ok([site.url("/b"), "connection-failed"].includes(await pending));
    await assert.rejects(
      client.resolve(site.url("/b")),
      (e) => isCanonError(e) && e.code === "connection-failed",
    );
  });
});

describe("the lazy pinned transport", () => {
  let site: Site;
  before(async () => {
    site = await startSite(text("hello"));
  });
  after(() => site.close());

  const request = (url: string): TransportRequest => ({
    url: new URL(url),
    method: "GET",
    headers: {},
    addresses: ["127.0.0.1"],
    signal: new AbortController().signal,
    connectTimeoutMs: 2000,
    readTimeoutMs: 2000,
    writeTimeoutMs: 2000,
  });
  async function body(response: TransportResponse): Promise<string> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  }

  it("counts no socket until first use, then pins like the real one", async () => {
    const transport = createPinnedTransport();
    try {
      assert.equal(transport.socketsOpened, 0);
      const response = await transport.request(request(site.url("/x")));
      assert.equal(response.status, 200);
      assert.equal(await body(response), "hello");
      assert.equal(transport.socketsOpened, 1);
    } finally {
      await transport.close();
    }
  });

  it("closed before first use, it refuses requests with a CanonError", async () => {
    const transport = createPinnedTransport();
    await transport.close();
    await assert.rejects(transport.request(request(site.url("/x"))), (e) => isCanonError(e));
    assert.equal(transport.socketsOpened, 0);
  });
});
