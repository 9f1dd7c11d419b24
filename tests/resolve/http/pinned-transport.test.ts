import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { CanonError } from "../../../src/errors/canon-error.js";
import { createPinnedTransport } from "../../../src/resolve/http/pinned-transport.js";
import { toCanonError } from "../../../src/resolve/http/to-canon-error.js";
import type { TransportRequest, TransportResponse } from "../../../src/resolve/http/transport.js";
import { type LocalServer, startLocalServer } from "../../helpers/local-server.js";
import { fromRoot } from "../../helpers/paths.js";
import { createTlsFixture, hasOpenssl, type TlsFixture } from "../../helpers/tls.js";

function req(url: string, overrides: Partial<TransportRequest> = {}): TransportRequest {
  return {
    url: new URL(url),
    method: "GET",
    headers: {},
    addresses: ["127.0.0.1"],
    signal: new AbortController().signal,
    connectTimeoutMs: 2000,
    readTimeoutMs: 2000,
    writeTimeoutMs: 2000,
    ...overrides,
  };
}

async function text(response: TransportResponse): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<CanonError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CanonError, `raw error escaped: ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.notEqual(error.cause, undefined, "cause must be set");
    return error;
  }
  assert.fail(`expected ${code}`);
}

// A port nothing listens on: bind, read the port, close.
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("pinned transport over HTTP", () => {
  let server: LocalServer;
  const hosts: string[] = [];
  before(async () => {
    server = await startLocalServer({
      handler: (request, response) => {
        hosts.push(request.headers.host ?? "");
        if (request.url === "/cookies") {
          response.setHeader("Set-Cookie", ["a=1", "b=2"]);
          response.setHeader("X-Custom", "yes");
        }
        if (request.url === "/big") {
          // 1 MiB in 16 KiB writes, each byte its offset mod 251, so a lost or reordered chunk shows.
          const chunk = (n: number) =>
            Buffer.from(Array.from({ length: 16384 }, (_, i) => (n * 16384 + i) % 251));
          for (let n = 0; n < 64; n++) response.write(chunk(n));
          response.end();
          return;
        }
        if (request.url === "/early-hints") {
          response.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
          response.setHeader("X-Final", "yes");
        }
        response.end(request.method === "HEAD" ? undefined : `hello ${request.url}`);
      },
    });
  });
  after(() => server.close());

  it("reaches the validated address for a name no system resolver knows", async () => {
    const transport = createPinnedTransport();
    try {
      assert.equal(transport.socketsOpened, 0);
      const response = await transport.request(req(`${server.origin("pinned.test")}/a?b=1`));
      assert.equal(response.status, 200);
      assert.equal(await text(response), "hello /a?b=1");
      assert.equal(hosts.at(-1), `pinned.test:${server.port}`, "Host carries the name, not the address");
      assert.equal(transport.socketsOpened, 1);
    } finally {
      await transport.close();
    }
  });

  it("reuses one kept-alive connection per origin and address list", async () => {
    const transport = createPinnedTransport();
    const before = server.connections;
    try {
      const get = async (path: string, addresses = ["127.0.0.1"]) => {
        const response = await transport.request(req(`${server.origin("reuse.test")}${path}`, { addresses }));
        assert.equal(await text(response), `hello ${path}`);
      };
      await get("/1");
      await get("/2");
      assert.equal(transport.socketsOpened, 1);
      assert.equal(server.connections - before, 1, "the server saw one connection");
      // Another validated address list is another destination: a connection is only ever reused for
      // the exact addresses it was validated for.
      await get("/3", ["127.0.0.1", "127.0.0.1"]);
      assert.equal(transport.socketsOpened, 2);
      await get("/4");
      assert.equal(transport.socketsOpened, 2);
      const head = await transport.request(req(`${server.origin("reuse.test")}/5`, { method: "HEAD" }));
      assert.equal(head.status, 200);
      await text(head);
      assert.equal(transport.socketsOpened, 2, "HEAD rides the open connection");
      // undici would close the connection after HEAD by default; the transport keeps it.
      await get("/6");
      assert.equal(transport.socketsOpened, 2, "the connection survived the HEAD");
      assert.equal(server.connections - before, 2);
    } finally {
      await transport.close();
    }
  });

  it("delivers a large body intact to a slow reader, then reuses the connection", async () => {
    const transport = createPinnedTransport();
    try {
      const response = await transport.request(req(`${server.origin("big.test")}/big`));
      const chunks: Uint8Array[] = [];
      for await (const chunk of response.body) {
        chunks.push(chunk);
        // A reader slower than the socket: the transport pauses the connection instead of buffering.
        if (chunks.length < 8) await new Promise((r) => setTimeout(r, 20));
      }
      const body = Buffer.concat(chunks);
      assert.equal(body.length, 64 * 16384);
      assert.ok(
        body.every((byte, i) => byte === i % 251),
        "every byte in place",
      );
      assert.equal(
        await text(await transport.request(req(`${server.origin("big.test")}/after`))),
        "hello /after",
      );
      assert.equal(transport.socketsOpened, 1, "a body read to the end leaves the connection reusable");
    } finally {
      await transport.close();
    }
  });

  it("skips interim 1xx responses and returns the final one", async () => {
    const transport = createPinnedTransport();
    try {
      const response = await transport.request(req(`${server.origin("hints.test")}/early-hints`));
      assert.equal(response.status, 200);
      assert.equal(response.headers["x-final"], "yes");
      assert.equal(response.headers.link, undefined, "the 103's fields are not the response's");
      assert.equal(await text(response), "hello /early-hints");
    } finally {
      await transport.close();
    }
  });

  it("returns lowercased headers, keeping repeated fields", async () => {
    const transport = createPinnedTransport();
    try {
      const response = await transport.request(req(`${server.origin("h.test")}/cookies`));
      assert.deepEqual(response.headers["set-cookie"], ["a=1", "b=2"]);
      assert.equal(response.headers["x-custom"], "yes");
      await response.dispose();
      await response.dispose();
    } finally {
      await transport.close();
    }
  });

  it("maps a refused connection to connection-failed with the cause", async () => {
    const transport = createPinnedTransport();
    try {
      const port = await closedPort();
      const error = await rejectsWith(
        transport.request(req(`http://gone.test:${port}/`)),
        "connection-failed",
      );
      assert.match(error.message, new RegExp(`http://gone\\.test:${port}/`));
      assert.equal(transport.socketsOpened, 0);
    } finally {
      await transport.close();
    }
  });

  it("refuses to connect without validated addresses, and after close", async () => {
    const transport = createPinnedTransport();
    await rejectsWith(
      transport.request(req(server.origin("x.test"), { addresses: [] })),
      "connection-failed",
    );
    await rejectsWith(
      transport.request(req(server.origin("x.test"), { addresses: ["x.test"] })),
      "connection-failed",
    );
    await transport.close();
    await rejectsWith(transport.request(req(server.origin("x.test"))), "connection-failed");
    assert.equal(transport.socketsOpened, 0);
  });
});

describe("pinned transport over IPv6 loopback", () => {
  it("pins a name to a validated ::1", async (t) => {
    let server: LocalServer;
    try {
      server = await startLocalServer({ host: "::1", handler: (_q, r) => r.end("six") });
    } catch (error) {
      t.skip(`SKIPPED LOUDLY: cannot listen on [::1] here (${(error as Error).message})`);
      return;
    }
    const transport = createPinnedTransport();
    try {
      const response = await transport.request(req(server.origin("six.test"), { addresses: ["::1"] }));
      assert.equal(await text(response), "six");
      const literal = await transport.request(req(`http://[::1]:${server.port}/`, { addresses: ["::1"] }));
      assert.equal(await text(literal), "six");
      assert.equal(server.requests, 2);
    } finally {
      await transport.close();
      await server.close();
    }
  });
});

describe("pinned transport timeouts and disposal", () => {
  let server: LocalServer;
  let closedByPeer = 0;
  before(async () => {
    server = await startLocalServer({
      handler: (request, response) => {
        request.socket.once("close", () => closedByPeer++);
        if (request.url === "/slow-headers") {
          setTimeout(() => response.end("late"), 1500).unref();
        } else if (request.url === "/stall-body") {
          response.writeHead(200, { "content-type": "text/html" });
          response.write("<html><head>");
        } else if (request.url === "/endless") {
          response.writeHead(200);
          const timer = setInterval(() => response.write("x".repeat(16384)), 5);
          response.on("close", () => clearInterval(timer));
        } else {
          response.end("ok");
        }
      },
    });
  });
  after(() => server.close());

  it("slow headers beyond the read timeout → timeout", async () => {
    const transport = createPinnedTransport();
    try {
      const error = await rejectsWith(
        transport.request(req(`${server.origin("slow.test")}/slow-headers`, { readTimeoutMs: 100 })),
        "timeout",
      );
      assert.match(error.message, /slow\.test/);
    } finally {
      await transport.close();
    }
  });

  it("a stalled body beyond the read timeout → timeout from the body iterator", async () => {
    const transport = createPinnedTransport();
    try {
      const response = await transport.request(
        req(`${server.origin("stall.test")}/stall-body`, { readTimeoutMs: 150 }),
      );
      assert.equal(response.status, 200);
      await rejectsWith(text(response), "timeout");
    } finally {
      await transport.close();
    }
  });

  it("the total deadline aborts a request → timeout", async () => {
    const transport = createPinnedTransport();
    const keepAlive = setTimeout(() => {}, 5000);
    try {
      const started = Date.now();
      await rejectsWith(
        transport.request(
          req(`${server.origin("deadline.test")}/slow-headers`, { signal: AbortSignal.timeout(100) }),
        ),
        "timeout",
      );
      assert.ok(Date.now() - started < 1400, "aborted before the server answered");
    } finally {
      clearTimeout(keepAlive);
      await transport.close();
    }
  });

  it("a request head the server never reads → timeout after writeTimeoutMs, not the read timeout", async () => {
    // The server accepts and never reads, so a head larger than the loopback buffers stalls in the
    // socket's own queue: only the write timeout can end it before the (far) read timeout.
    const sockets: Socket[] = [];
    const deaf = createServer((socket) => {
      socket.pause();
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => deaf.listen(0, "127.0.0.1", resolve));
    const { port } = deaf.address() as { port: number };
    const transport = createPinnedTransport();
    const headers = { "x-pad": "p".repeat(32 * 1024 * 1024) };
    try {
      const started = Date.now();
      const error = await rejectsWith(
        transport.request(
          req(`http://deaf.test:${port}/`, { headers, writeTimeoutMs: 200, readTimeoutMs: 20_000 }),
        ),
        "timeout",
      );
      assert.match(error.message, /write/);
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      // A head that is written at once is never cut short by a write timeout shorter than the answer.
      const quick = await transport.request(
        req(`${server.origin("quick.test")}/slow-headers`, { writeTimeoutMs: 50, readTimeoutMs: 3000 }),
      );
      assert.equal(quick.status, 200);
      await quick.dispose();
    } finally {
      await transport.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => deaf.close(() => resolve()));
    }
  });

  it("a listener that never completes the TLS handshake → timeout after connectTimeoutMs", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const transport = createPinnedTransport();
    try {
      await rejectsWith(
        transport.request(req(`https://mute.test:${port}/`, { connectTimeoutMs: 150 })),
        "timeout",
      );
    } finally {
      await transport.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("dispose() stops an endless body without draining it", async () => {
    const transport = createPinnedTransport();
    try {
      const closedBefore = closedByPeer;
      const response = await transport.request(req(`${server.origin("endless.test")}/endless`));
      const iterator = response.body[Symbol.asyncIterator]();
      const first = await iterator.next();
      assert.equal(first.done, false);
      await response.dispose();
      const deadline = Date.now() + 2000;
      while (closedByPeer === closedBefore && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      assert.equal(closedByPeer, closedBefore + 1, "the server saw the connection end");
    } finally {
      await transport.close();
    }
  });
});

describe("pinned transport over HTTPS", {
  skip: hasOpenssl ? false : "SKIPPED LOUDLY: no openssl CLI to make a throwaway CA",
}, () => {
  let pki: TlsFixture;
  let stranger: TlsFixture;
  let server: LocalServer;
  let plain: LocalServer;
  const servernames: (string | false)[] = [];
  before(async () => {
    pki = createTlsFixture(["good.test"]);
    stranger = createTlsFixture(["good.test"]);
    server = await startLocalServer({
      tls: { key: pki.key, cert: pki.cert },
      handler: (request, response) => {
        servernames.push((request.socket as unknown as { servername: string | false }).servername);
        response.end("secure");
      },
    });
    plain = await startLocalServer();
  });
  after(async () => {
    await server?.close();
    await plain?.close();
  });

  it("verifies the certificate against the host name with the extra CA", async () => {
    const transport = createPinnedTransport({ ca: pki.ca });
    try {
      const response = await transport.request(req(server.origin("good.test")));
      assert.equal(response.status, 200);
      assert.equal(await text(response), "secure");
      assert.equal(servernames.at(-1), "good.test", "SNI carries the host name");
    } finally {
      await transport.close();
    }
  });

  it("keeps SNI and the name check on the URL host whatever the Host header says", async () => {
    const transport = createPinnedTransport({ ca: [pki.ca] });
    try {
      const response = await transport.request(
        req(server.origin("good.test"), { headers: { host: "bad.test" } }),
      );
      await text(response);
      assert.equal(servernames.at(-1), "good.test");
    } finally {
      await transport.close();
    }
  });

  it("an untrusted certificate → tls (no CA, or an unrelated CA)", async () => {
    for (const transport of [createPinnedTransport(), createPinnedTransport({ ca: stranger.ca })]) {
      try {
        await rejectsWith(transport.request(req(server.origin("good.test"))), "tls");
      } finally {
        await transport.close();
      }
    }
  });

  it("a name the certificate does not cover → tls", async () => {
    const transport = createPinnedTransport({ ca: pki.ca });
    try {
      const error = await rejectsWith(transport.request(req(server.origin("bad.test"))), "tls");
      assert.match(error.message, /ALTNAME|bad\.test/);
      // The failure poisons nothing: the same transport still serves the right name.
      const good = await transport.request(req(server.origin("good.test")));
      assert.equal(await text(good), "secure");
    } finally {
      await transport.close();
    }
  });

  it("plain HTTP answering a TLS handshake → tls", async () => {
    const transport = createPinnedTransport({ ca: pki.ca });
    try {
      await rejectsWith(transport.request(req(`https://good.test:${plain.port}/`)), "tls");
    } finally {
      await transport.close();
    }
  });
});

describe("environment proxies are never used", () => {
  it("a child with HTTP_PROXY/HTTPS_PROXY/ALL_PROXY and a proxying global dispatcher still connects directly", async () => {
    const target = await startLocalServer({ handler: (_q, r) => r.end("direct") });
    const proxy = await startLocalServer({ handler: (_q, r) => r.end("via proxy") });
    try {
      const proxyUrl = `http://127.0.0.1:${proxy.port}`;
      const script = `
        import { EnvHttpProxyAgent, setGlobalDispatcher } from "undici";
        import { createPinnedTransport } from ${JSON.stringify(fromRoot("build/src/resolve/http/pinned-transport.js"))};
        setGlobalDispatcher(new EnvHttpProxyAgent());
        const transport = createPinnedTransport();
        const res = await transport.request({
          url: new URL(${JSON.stringify(target.origin("target.test"))} + "/"), method: "GET", headers: {},
          addresses: ["127.0.0.1"], signal: new AbortController().signal,
          connectTimeoutMs: 2000, readTimeoutMs: 2000, writeTimeoutMs: 2000,
        });
        let body = "";
        for await (const chunk of res.body) body += Buffer.from(chunk).toString();
        await transport.close();
        console.log(JSON.stringify({ status: res.status, body }));
      `;
      const env = {
        ...process.env,
        HTTP_PROXY: proxyUrl,
        HTTPS_PROXY: proxyUrl,
        ALL_PROXY: proxyUrl,
        http_proxy: proxyUrl,
        https_proxy: proxyUrl,
        all_proxy: proxyUrl,
        NO_PROXY: "",
        no_proxy: "",
      };
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        env,
        cwd: fromRoot(),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      assert.equal(code, 0, stderr);
      assert.deepEqual(JSON.parse(stdout.trim()), { status: 200, body: "direct" });
      assert.equal(target.requests, 1);
      assert.equal(proxy.connections, 0, "the proxy was contacted");
    } finally {
      await target.close();
      await proxy.close();
    }
  });
});

describe("toCanonError", () => {
  it("classifies undici and socket errors and always keeps the cause", () => {
    const url = "http://a.test/";
    const cases: [unknown, string][] = [
      [Object.assign(new Error("Headers Timeout Error"), { code: "UND_ERR_HEADERS_TIMEOUT" }), "timeout"],
      [Object.assign(new Error("Body Timeout Error"), { code: "UND_ERR_BODY_TIMEOUT" }), "timeout"],
      [Object.assign(new Error("Connect Timeout Error"), { code: "UND_ERR_CONNECT_TIMEOUT" }), "timeout"],
      [new DOMException("The operation was aborted due to timeout", "TimeoutError"), "timeout"],
      [Object.assign(new Error("altname"), { code: "ERR_TLS_CERT_ALTNAME_INVALID" }), "tls"],
      [Object.assign(new Error("leaf"), { code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" }), "tls"],
      [Object.assign(new Error("self"), { code: "DEPTH_ZERO_SELF_SIGNED_CERT" }), "tls"],
      [Object.assign(new Error("expired"), { code: "CERT_HAS_EXPIRED" }), "tls"],
      [
        new Error("other side closed", {
          cause: Object.assign(new Error("x"), { code: "SELF_SIGNED_CERT_IN_CHAIN" }),
        }),
        "tls",
      ],
      [Object.assign(new Error("refused"), { code: "ECONNREFUSED" }), "connection-failed"],
      ["a string", "connection-failed"],
    ];
    for (const [raw, code] of cases) {
      const mapped = toCanonError(raw, url);
      assert.ok(mapped instanceof CanonError);
      assert.equal(mapped.code, code, String(raw));
      assert.equal(mapped.cause, raw);
      assert.match(mapped.message, /http:\/\/a\.test\//);
    }
  });

  it("passes CanonErrors through and reads an aborted signal as the caller's abort or the deadline", () => {
    const own = new CanonError("redirect-loop", "loop");
    assert.equal(toCanonError(own, "http://a.test/"), own);
    const controller = new AbortController();
    controller.abort();
    const aborted = toCanonError(new Error("socket hang up"), "http://a.test/", controller.signal);
    assert.equal(aborted.code, "aborted");
    assert.equal((aborted.cause as Error).message, "socket hang up");
    const timedOut = AbortSignal.abort(new DOMException("total timeout of 5 ms", "TimeoutError"));
    assert.equal(toCanonError(new Error("socket hang up"), "http://a.test/", timedOut).code, "timeout");
    const withReason = new AbortController();
    withReason.abort(own);
    assert.equal(toCanonError(new Error("aborted"), "http://a.test/", withReason.signal), own);
  });
});
