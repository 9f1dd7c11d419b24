import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createFixedResolver } from "../../src/cli/flags/fixed-resolver.js";
import { createServeApp } from "../../src/serve/app.js";
import { errorSchema, outcomeLineSchema } from "../../src/serve/schemas.js";
import type { ServeOptions } from "../../src/serve/serve-options.js";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { fromRoot } from "../helpers/paths.js";
import { ndjson, ndjsonLines, post } from "./helpers.js";

// Only .test names, answered by the fixed resolver; any other name fails, so nothing but the
// local server is ever dialled.
const noSystemDns = (hostname: string) => Promise.reject(new Error(`no DNS in tests: ${hostname}`));

describe("POST /v1/resolve", () => {
  let origin: LocalServer;
  const held: ServerResponse[] = [];
  // While set, /hold answers nothing until the test ends the response (HEAD and GET alike).
  let holding = true;
  before(async () => {
    origin = await startLocalServer({
      handler: (request, response) => {
        const path = request.url ?? "/";
        if (path.startsWith("/start")) {
          response.writeHead(301, { location: "/final?utm_source=mail" });
          response.end();
        } else if (path.startsWith("/hold") && holding) {
          held.push(response);
        } else {
          response.writeHead(200, { "content-type": "text/plain" });
          response.end("ok");
        }
      },
    });
  });
  after(async () => {
    for (const response of held) response.destroy();
    await origin.close();
  });

  const logs: string[] = [];
  function app(extra: ServeOptions = {}) {
    return createServeApp({
      assetsDir: fromRoot("dist/serve/playground"),
      allowResolve: true,
      client: {
        resolver: createFixedResolver(new Map([["origin.test", ["127.0.0.1"]]]), noSystemDns),
        allowedNetworks: ["127.0.0.1/32"],
        allowedPorts: [origin.port],
      },
      log: (line) => logs.push(line),
      ...extra,
    });
  }

  async function errorCode(response: Response, status: number): Promise<string> {
    assert.equal(response.status, status);
    const body: unknown = await response.json();
    assert.ok(v.is(errorSchema, body));
    return body.error.code;
  }

  it("403 unless started with allowResolve, before reading the body", async () => {
    const off = createServeApp({ assetsDir: fromRoot("dist/serve/playground") });
    const before = origin.requests;
    assert.equal(
      await errorCode(await post(off, "/v1/resolve", ndjson([origin.origin("origin.test")])), 403),
      "forbidden",
    );
    assert.equal(origin.requests, before, "nothing was fetched");
  });

  it("401 without the bearer token, or with a wrong one; 200 with it", async () => {
    const guarded = app({ token: "s3cret-token" });
    const body = ndjson([`${origin.origin("origin.test")}/ok`]);
    const none = await post(guarded, "/v1/resolve", body);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal(await errorCode(none, 401), "unauthorized");
    for (const wrong of [
      "Bearer s3cret-toke",
      "Bearer s3cret-token2",
      "Basic s3cret-token",
      "s3cret-token",
      "Bearer ",
    ]) {
      assert.equal(
        await errorCode(await post(guarded, "/v1/resolve", body, { authorization: wrong }), 401),
        "unauthorized",
        wrong,
      );
    }
    const ok = await post(guarded, "/v1/resolve", body, { authorization: "Bearer s3cret-token" });
    assert.equal(ok.status, 200);
    assert.equal((await ndjsonLines(ok))[0]?.ok, true);
  });

  it("follows the redirect, applies the pipeline, streams Outcomes in input order", async () => {
    const inputs = [
      `${origin.origin("origin.test")}/start`,
      `${origin.origin("unknown.test")}/`,
      `${origin.origin("origin.test")}/ok?b=2&a=1`,
      "ftp://x.test/",
    ];
    const lines = await ndjsonLines(await post(app(), "/v1/resolve", JSON.stringify(inputs)));
    assert.deepEqual(
      lines.map((l) => l.index),
      [0, 1, 2, 3],
    );
    assert.deepEqual(
      lines.map((l) => l.input),
      inputs,
    );
    for (const line of lines) assert.ok(v.is(outcomeLineSchema, line), JSON.stringify(line));
    const first = lines[0] as {
      ok: true;
      result: { url: string; chain: { status: number; via: string }[]; paramsStripped: string[] };
    };
    assert.equal(first.result.url, `${origin.origin("origin.test")}/final`);
    assert.deepEqual(
      first.result.chain.map((h) => [h.via, h.status]),
      [
        ["initial", 301],
        ["redirect", 200],
      ],
    );
    assert.deepEqual(first.result.paramsStripped, ["utm_source"]);
    assert.equal((lines[1] as { error: { code: string } }).error.code, "connection-failed");
    assert.equal(
      (lines[2] as { result: { url: string } }).result.url,
      `${origin.origin("origin.test")}/ok?a=1&b=2`,
    );
    assert.equal((lines[3] as { error: { code: string } }).error.code, "unsupported-scheme");
  });

  it("a request cannot loosen the network policy: network options in the body are refused", async () => {
    const body = JSON.stringify({ options: { allowPrivateNetworks: true }, urls: ["http://origin.test/"] });
    // Named as the option at fault (issue 23), where valibot's union said "Expected Object but
    // received Object".
    const refused = await post(app(), "/v1/resolve", body);
    assert.equal(refused.status, 400);
    assert.deepEqual(await refused.json(), {
      error: { code: "invalid-option", message: 'options: unknown option "allowPrivateNetworks"' },
    });
    assert.equal(
      await errorCode(await post(app(), "/v1/resolve?allowedPorts=1", "[]"), 400),
      "invalid-option",
    );
  });

  it("streams: line 0 arrives while input 1 is still held by the origin", async () => {
    const response = await post(
      app(),
      "/v1/resolve",
      ndjson([`${origin.origin("origin.test")}/ok`, `${origin.origin("origin.test")}/hold`]),
    );
    assert.equal(response.status, 200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    const firstChunk = new TextDecoder().decode(value);
    assert.equal(JSON.parse(firstChunk.trim()).index, 0);
    // Input 1 is not done: the origin answers it only below.
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    holding = false;
    held.shift()?.end("late");
    let rest = "";
    for (let step = await reader.read(); !step.done; step = await reader.read())
      rest += new TextDecoder().decode(step.value);
    assert.equal(JSON.parse(rest.trim()).index, 1);
  });

  it("the request deadline answers timeout for the inputs not done, still one line each in order", async () => {
    holding = true;
    const quick = app({ requestTimeoutMs: 300 });
    const inputs = [`${origin.origin("origin.test")}/hold`, `${origin.origin("origin.test")}/ok`];
    const lines = await ndjsonLines(await post(quick, "/v1/resolve", ndjson(inputs)));
    assert.deepEqual(
      lines.map((l) => l.index),
      [0, 1],
    );
    assert.equal((lines[0] as { error: { code: string } }).error.code, "timeout");
    assert.equal(lines[1]?.ok, true, "the input that finished keeps its answer");
    while (held.length > 0) held.shift()?.destroy();
  });

  it("logs the host of each resolution, never its path or query", async () => {
    logs.length = 0;
    await ndjsonLines(
      await post(
        app(),
        "/v1/resolve",
        ndjson([
          `${origin.origin("origin.test")}/ok?secret=hunter2`,
          `http://user:pw@unknown.test:${origin.port}/private`,
        ]),
      ),
    );
    assert.equal(logs.length, 2, logs.join("\n"));
    assert.ok(
      logs.some((l) => l.includes("host=origin.test") && l.includes("ok=true")),
      logs.join("\n"),
    );
    assert.ok(
      logs.some((l) => l.includes("host=unknown.test") && l.includes("code=userinfo")),
      logs.join("\n"),
    );
    for (const line of logs) assert.doesNotMatch(line, /secret|hunter2|private|pw|\/ok/);
  });
});
