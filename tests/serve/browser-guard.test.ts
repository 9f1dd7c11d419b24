// The service refuses the two ways a web page could use it from someone's browser: DNS rebinding
// (a foreign name in Host) and a cross-site POST (a foreign Origin). Over a real socket, because
// Host is what the client put on the wire.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { checkBrowserRequest, isLoopbackBind } from "../../src/serve/browser-guard.js";
import { HttpError } from "../../src/serve/http-error.js";
import { type RunningServe, startServe } from "../../src/serve/start-serve.js";
import { fromRoot } from "../helpers/paths.js";

function send(
  served: RunningServe,
  path: string,
  headers: Record<string, string>,
  method = "GET",
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: served.port, path, method, headers, agent: false },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("isLoopbackBind", () => {
  it("knows the loopback binds from the others", () => {
    for (const host of ["127.0.0.1", "127.4.5.6", "::1", "[::1]", "localhost"])
      assert.equal(isLoopbackBind(host), true, host);
    for (const host of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.2", "example.test", "128.0.0.1"]) {
      assert.equal(isLoopbackBind(host), false, host);
    }
  });
});

describe("checkBrowserRequest", () => {
  const url = new URL("http://127.0.0.1:8787/v1/resolve");
  it("refuses a foreign Host unless any is allowed, and a foreign Origin on anything but GET", () => {
    assert.throws(
      () => checkBrowserRequest("GET", new URL("http://rebound.test:8787/"), undefined, ["127.0.0.1"]),
      (error: HttpError) => error.status === 403 && /rebound\.test/.test(error.message),
    );
    checkBrowserRequest("GET", new URL("http://rebound.test:8787/"), undefined, null);
    assert.throws(() => checkBrowserRequest("POST", url, "https://evil.test", null), HttpError);
    assert.throws(() => checkBrowserRequest("POST", url, "http://127.0.0.1:9999", null), HttpError);
    assert.throws(() => checkBrowserRequest("POST", url, "null", null), HttpError);
    checkBrowserRequest("POST", url, "http://127.0.0.1:8787", ["127.0.0.1"]);
    checkBrowserRequest("POST", url, undefined, ["127.0.0.1"]);
    checkBrowserRequest("GET", url, "https://evil.test", ["127.0.0.1"]);
  });
});

describe("a loopback-bound service and the browser-only headers", () => {
  let served: RunningServe;
  before(async () => {
    served = await startServe({ port: 0, assetsDir: fromRoot("dist/serve/playground") });
  });
  after(async () => {
    await served.drain(1000);
  });

  it("answers the loopback names, and 403 to any other Host (DNS rebinding)", async () => {
    for (const host of [`127.0.0.1:${served.port}`, `localhost:${served.port}`, `LOCALHOST:${served.port}`]) {
      assert.equal((await send(served, "/healthz", { host })).status, 200, host);
    }
    for (const host of [
      `rebound.test:${served.port}`,
      "rebound.test",
      `127.0.0.1.rebound.test:${served.port}`,
    ]) {
      const answer = await send(served, "/", { host });
      assert.equal(answer.status, 403, host);
      assert.match(answer.body, /"code":"forbidden"/);
      assert.doesNotMatch(answer.body, /playground/, "no page for a rebound name");
    }
  });

  it("refuses a POST from another origin, takes one from its own or from a program without Origin", async () => {
    const body = '{"url":"HTTP://A.example/"}\n';
    const own = `http://127.0.0.1:${served.port}`;
    const cross = await send(served, "/v1/normalize", { origin: "https://evil.test" }, "POST", body);
    assert.equal(cross.status, 403);
    assert.match(cross.body, /cross-origin/);
    for (const headers of [{ origin: own }, {}]) {
      const answer = await send(served, "/v1/normalize", headers, "POST", body);
      assert.equal(answer.status, 200, JSON.stringify(headers));
      assert.match(answer.body, /"canonical":"http:\/\/a\.example\/"/);
    }
    // A GET from another origin is answered, but without CORS consent the page cannot read it.
    const read = await send(served, "/healthz", { origin: "https://evil.test" });
    assert.equal(read.status, 200);
  });

  it("bound elsewhere, any Host is taken unless allowedHosts names them", async () => {
    const anyHost = await startServe({
      port: 0,
      allowedHosts: null,
      assetsDir: fromRoot("dist/serve/playground"),
    });
    const named = await startServe({ port: 0, allowedHosts: ["canon.internal.test"] });
    try {
      assert.equal((await send(anyHost, "/healthz", { host: "whatever.test" })).status, 200);
      assert.equal((await send(named, "/healthz", { host: "canon.internal.test:80" })).status, 200);
      assert.equal((await send(named, "/healthz", { host: `127.0.0.1:${named.port}` })).status, 403);
    } finally {
      await anyHost.drain(1000);
      await named.drain(1000);
    }
  });
});
