import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isFetchError, isSecurityError } from "../../src/errors/guards.js";
import { resolve } from "../../src/resolve/one-shot.js";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { createTlsFixture, hasOpenssl } from "../helpers/tls.js";
import { redirect, routes, type Site, startSite, stubResolver, text } from "./site.js";

describe("security policy end to end", () => {
  let site: Site;
  let second: LocalServer | undefined;
  before(async () => {
    site = await startSite((request, response) => {
      const table = {
        "/next": text("next"),
        // Same name, the port of the 127.0.0.2 server: if the second answer were used, it would land there.
        "/start": redirect(`http://rebind.test:${second?.port ?? site.server.port}/next`),
      };
      routes(table)(request, response);
    });
    // A listener on 127.0.0.2 counts connections, so "never dialled" is observed, not assumed.
    second = await startLocalServer({ host: "127.0.0.2" });
  });
  after(async () => {
    await site.close();
    await second?.close();
  });

  it("rejects a name the stub resolver does not know: the system resolver is never asked", async () => {
    const resolver = stubResolver({});
    await assert.rejects(
      resolve(site.url("/next", "unknown.test"), { ...site.options(), resolver }),
      (e) => isFetchError(e) && e.code === "connection-failed" && e.cause !== undefined,
    );
    assert.deepEqual(resolver.calls, ["unknown.test"]);
  });

  it("refuses 127.0.0.2 and [::1] answers outside allowedNetworks before connecting", async () => {
    const before = site.server.connections;
    for (const answer of ["127.0.0.2", "::1"]) {
      const options = site.options({}, { "a.test": [answer] });
      await assert.rejects(
        resolve(site.url("/next"), options),
        (e) => isSecurityError(e) && e.code === "blocked-address",
        answer,
      );
    }
    await assert.rejects(
      resolve(site.url("/next"), site.options({}, { "a.test": ["127.0.0.1", "127.0.0.2"] })),
      (e) => isSecurityError(e) && e.code === "blocked-address",
    );
    assert.equal(site.server.connections, before);
    assert.equal(second?.connections, 0);
  });

  it("refuses localhost and IP literals outside the policy", async () => {
    for (const url of [
      `http://localhost:${site.server.port}/`,
      `http://127.0.0.2:${site.server.port}/`,
      `http://[::1]:${site.server.port}/`,
    ]) {
      await assert.rejects(
        resolve(url, site.options()),
        (e) => isSecurityError(e) && e.code === "blocked-address",
        url,
      );
    }
  });

  it("checks DNS again on every hop: a rebinding answer is refused and never dialled", async () => {
    let calls = 0;
    const options = site.options(
      {},
      {
        "rebind.test": () => {
          calls++;
          return calls === 1 ? ["127.0.0.1"] : ["127.0.0.2"];
        },
      },
    );
    options.allowedPorts = [site.server.port, second?.port ?? 0];
    site.log.length = 0;
    await assert.rejects(
      resolve(site.url("/start", "rebind.test"), options),
      (e) => isSecurityError(e) && e.code === "blocked-address" && e.message.includes("127.0.0.2"),
    );
    assert.equal(calls, 2);
    assert.deepEqual(site.log, ["HEAD rebind.test/start"]);
    assert.equal(second?.connections, 0);
  });

  it("ignores proxy environment variables", async () => {
    const proxy = await startLocalServer({ handler: (_q, r) => r.end("proxied") });
    const names = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"];
    const saved = names.map((name) => [name, process.env[name]] as const);
    const noProxy = process.env.NO_PROXY;
    try {
      for (const name of names) process.env[name] = `http://127.0.0.1:${proxy.port}`;
      delete process.env.NO_PROXY;
      const result = await resolve(site.url("/next"), site.options());
      assert.equal(result.status, 200);
      assert.equal(proxy.connections, 0);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      if (noProxy !== undefined) process.env.NO_PROXY = noProxy;
      await proxy.close();
    }
  });
});

describe("HTTPS end to end", { skip: hasOpenssl ? false : "openssl is not installed" }, () => {
  let tls: ReturnType<typeof createTlsFixture>;
  let other: ReturnType<typeof createTlsFixture>;
  let secure: Site;
  let plain: Site;
  before(async () => {
    tls = createTlsFixture(["secure.test", "www.secure.test"]);
    other = createTlsFixture(["secure.test"]);
    plain = await startSite(text("plain"));
    secure = await startSite(
      routes({
        "/": text("secure"),
        "/canon": text("canon"),

        "/downgrade": (_q, r) => redirect(`http://a.test:${plain.server.port}/`)(_q, r),
      }),
      { key: tls.key, cert: tls.cert },
    );
  });
  after(async () => {
    await secure?.close();
    await plain?.close();
  });

  const optionsFor = (extra: Parameters<Site["options"]>[0] = {}) =>
    secure.options(
      { ca: tls.ca, allowedPorts: [secure.server.port, plain.server.port], ...extra },
      { "www.secure.test": ["127.0.0.1"] },
    );

  it("fetches over TLS with the throwaway CA", async () => {
    const result = await resolve(secure.url("/", "secure.test"), optionsFor());
    assert.equal(result.url, secure.url("/", "secure.test"));
    assert.equal(result.status, 200);
  });

  it("fails with tls for a certificate that does not name the host", async () => {
    await assert.rejects(
      resolve(secure.url("/", "b.test"), optionsFor()),
      (e) => isFetchError(e) && e.code === "tls" && e.cause !== undefined,
    );
  });

  it("fails with tls for an untrusted certificate, with or without another CA", async () => {
    const untrusted = { ...optionsFor() };
    delete untrusted.ca;
    await assert.rejects(
      resolve(secure.url("/", "secure.test"), untrusted),
      (e) => isFetchError(e) && e.code === "tls",
    );
    await assert.rejects(
      resolve(secure.url("/", "secure.test"), optionsFor({ ca: other.ca })),
      (e) => isFetchError(e) && e.code === "tls",
    );
  });

  it("refuses an https -> http redirect unless allowDowngrade", async () => {
    await assert.rejects(
      resolve(secure.url("/downgrade", "secure.test"), optionsFor()),
      (e) => isSecurityError(e) && e.code === "scheme-downgrade",
    );
    assert.equal(plain.server.requests, 0);
    const allowed = await resolve(
      secure.url("/downgrade", "secure.test"),
      optionsFor({ allowDowngrade: true }),
    );
    assert.equal(allowed.url, plain.url("/"));
    assert.equal(plain.server.requests, 1);
  });
});
