// Issue 11: what a hostile server can do to the resolver, each pinned to a bounded end. The server
// is a raw TCP listener on 127.0.0.1 so it can send what node:http would refuse to (a 1 MiB header,
// endless 1xx responses, a chunked body one byte at a time).
import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { isCanonError, isResponseTooLargeError, isTimeoutError } from "../../src/errors/guards.js";
import { createClient } from "../../src/resolve/client.js";
import type { ClientOptions } from "../../src/resolve/types.js";
import { stubResolver } from "./site.js";

const MiB = 1 << 20;
const HEAD = "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n";

// Each behaviour answers one request on its socket; `closed` records when the client gave up.
const behaviours: Record<string, (socket: Socket) => void> = {
  "/big-link": (s) => s.end(`${HEAD}link: <${"a".repeat(MiB)}>; rel=canonical\r\ncontent-length: 0\r\n\r\n`),
  "/big-location": (s) =>
    s.end(`HTTP/1.1 301 Moved\r\nlocation: /${"a".repeat(MiB)}\r\ncontent-length: 0\r\n\r\n`),
  "/many-links": (s) =>
    s.end(
      `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n${"link: </x>; rel=next\r\n".repeat(600)}` +
        "link: </c>; rel=canonical\r\ncontent-length: 0\r\n\r\n",
    ),
  "/c": (s) => s.end("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 0\r\n\r\n"),
  "/endless-1xx": (s) => {
    const timer = setInterval(
      () => s.write("HTTP/1.1 103 Early Hints\r\nlink: </x>; rel=preload\r\n\r\n"),
      5,
    );
    s.on("close", () => clearInterval(timer));
  },
  "/loris": (s) => {
    // A head that never ends, one byte every 20 ms: always under readTimeoutMs and maxBodyBytes.
    s.write(`${HEAD}transfer-encoding: chunked\r\n\r\nd\r\n<head><title>\r\n`);
    const timer = setInterval(() => s.write("1\r\na\r\n"), 20);
    s.on("close", () => clearInterval(timer));
  },
  "/nested-head": (s) => {
    const body = `<html>${"<head>".repeat(MiB / 6)}`;
    s.end(`${HEAD}content-length: ${body.length}\r\n\r\n${body}`);
  },
};

describe("a hostile server cannot crash, hang or burn the resolver", () => {
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((socket) => {
      socket.on("error", () => {});
      let buffered = "";
      socket.on("data", (data) => {
        buffered += data.toString("latin1");
        const request = /^(HEAD|GET) (\S+) HTTP\/1\.1\r\n[\s\S]*?\r\n\r\n/.exec(buffered);
        if (request === null) return;
        buffered = buffered.slice(request[0].length);
        const path = request[2] ?? "";
        const behaviour = behaviours[path];
        if (request[1] === "HEAD" && path === "/nested-head") {
          socket.write(`${HEAD}content-length: 0\r\n\r\n`);
          return;
        }
        if (behaviour === undefined) socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
        else behaviour(socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const options = (extra: ClientOptions = {}): ClientOptions => ({
    resolver: stubResolver({ "h.test": ["127.0.0.1"] }),
    allowedNetworks: ["127.0.0.1/32"],
    allowedPorts: [port],
    ...extra,
  });
  const url = (path: string): string => `http://h.test:${port}${path}`;

  it("a 1 MiB Link or Location header is refused as response-too-large, never parsed", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(options());
    try {
      for (const path of ["/big-link", "/big-location"]) {
        await assert.rejects(client.resolve(url(path)), (e) => {
          assert.ok(isResponseTooLargeError(e), String(e));
          assert.match((e as Error).message, /response head too large/);
          return true;
        });
      }
    } finally {
      await client.close();
    }
  });

  it("601 Link fields (within the header limit) are all read and the canonical among them found", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(options());
    try {
      const r = await client.resolve(url("/many-links"));
      assert.equal(r.url, url("/c"));
      assert.equal(r.source, "canonical-link");
    } finally {
      await client.close();
    }
  });

  it("endless 1xx responses end at the total deadline", { timeout: 10_000 }, async () => {
    const client = createClient(options({ totalTimeoutMs: 300 }));
    try {
      await assert.rejects(client.resolve(url("/endless-1xx")), (e) => isCanonError(e));
    } finally {
      await client.close();
    }
  });

  it("a slow-loris body under readTimeoutMs and maxBodyBytes ends at the total deadline", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(options({ totalTimeoutMs: 300, readTimeoutMs: 1_000 }));
    try {
      await assert.rejects(client.resolve(url("/loris")), (e) => isTimeoutError(e) && e.code === "timeout");
    } finally {
      await client.close();
    }
  });

  it("a 1 MiB head of nested <head> over the network resolves at once (hang guard; 8 s of CPU before)", {
    timeout: 4_000,
  }, async () => {
    const client = createClient(options());
    try {
      const r = await client.resolve(url("/nested-head"));
      assert.equal(r.url, url("/nested-head"));
      assert.equal(r.chain.at(-1)?.method, "GET");
    } finally {
      await client.close();
    }
  });
});
