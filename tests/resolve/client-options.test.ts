import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveClientOptions } from "../../src/resolve/client-options.js";
import type { ClientOptions } from "../../src/resolve/types.js";

describe("resolveClientOptions", () => {
  it("returns one shared frozen default object without options", () => {
    const a = resolveClientOptions();
    assert.equal(a, resolveClientOptions());
    assert.equal(a, resolveClientOptions({}));
    assert.equal(a, resolveClientOptions({ maxHops: undefined } as unknown as ClientOptions));
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a.allowedPorts) && Object.isFrozen(a.headers));
    assert.equal(a.maxHops, 10);
    assert.equal(a.totalTimeoutMs, 30_000);
    assert.equal(a.connectTimeoutMs, 8_000);
    assert.equal(a.readTimeoutMs, 15_000);
    assert.equal(a.writeTimeoutMs, 8_000);
    assert.equal(a.maxBodyBytes, 1_048_576);
    assert.deepEqual(a.allowedPorts, [80, 443]);
    assert.equal(a.allowPrivateNetworks, false);
    assert.deepEqual(a.allowedNetworks, []);
    assert.equal(a.allowDowngrade, false);
    assert.equal(a.canonicalLinks, "any");
    assert.equal(a.headers["accept-encoding"], "identity");
    assert.equal(a.logger, null);
    assert.equal(a.normalize.preset, "identity");
    assert.equal(a.hopNormalize.preset, "rfc3986");
  });

  it("copies and freezes what it is given", () => {
    const ports = [8080];
    const given: ClientOptions = { allowedPorts: ports, headers: { "User-Agent": "me" }, ca: "PEM" };
    const resolved = resolveClientOptions(given);
    ports.push(22);
    assert.deepEqual(resolved.allowedPorts, [8080]);
    assert.deepEqual(resolved.given.allowedPorts, [8080]);
    assert.ok(Object.isFrozen(resolved.given) && Object.isFrozen(resolved.given.allowedPorts));
    // Given headers replace the defaults (names lowercased); identity encoding is still asked for.
    assert.deepEqual(resolved.headers, { "user-agent": "me", "accept-encoding": "identity" });
    assert.deepEqual(resolved.ca, ["PEM"]);
  });

  it("keeps a caller's accept-encoding", () => {
    assert.equal(
      resolveClientOptions({ headers: { "Accept-Encoding": "gzip" } }).headers["accept-encoding"],
      "gzip",
    );
  });

  it("passes normalize options to the pipeline's own validation", () => {
    const resolved = resolveClientOptions({ preset: "rfc3986", defaultScheme: "https" });
    assert.equal(resolved.normalize.preset, "rfc3986");
    assert.equal(resolved.hopNormalize.defaultScheme, "https");
    assert.throws(() => resolveClientOptions({ preset: "x" as "rfc3986" }), /preset/);
    assert.throws(
      () => resolveClientOptions({ stripTracking: "yes" as unknown as boolean }),
      /stripTracking/,
    );
  });

  const bad: Array<[string, unknown]> = [
    ["maxHops", -1],
    ["maxHops", 1.5],
    ["maxHops", "3"],
    ["totalTimeoutMs", 0],
    ["totalTimeoutMs", 2 ** 31],
    ["connectTimeoutMs", Number.NaN],
    ["readTimeoutMs", null],
    ["writeTimeoutMs", -5],
    ["maxBodyBytes", 0],
    ["allowedPorts", []],
    ["allowedPorts", [0]],
    ["allowedPorts", [70000]],
    ["allowedPorts", "80"],
    ["allowPrivateNetworks", "true"],
    ["allowedNetworks", ["not a cidr"]],
    ["allowedNetworks", ["10.0.0.1/8"]],
    ["allowedNetworks", "127.0.0.1/32"],
    ["allowDowngrade", 1],
    ["canonicalLinks", "some"],
    ["headers", { "bad name": "x" }],
    ["headers", { "x-a": "line\r\nbreak" }],
    ["headers", { "x-a": 5 }],
    ["headers", ["x"]],
    ["ca", 5],
    ["ca", ["PEM", 1]],
    ["resolver", "8.8.8.8"],
    ["transport", {}],
    ["logger", { log() {} }],
    ["hooks", { onHop: 1 }],
    ["hooks", { onFoo() {} }],
    ["cache", { get() {} }],
  ];
  for (const [name, value] of bad) {
    it(`throws a TypeError naming ${name} for ${JSON.stringify(value) ?? String(value)}`, () => {
      assert.throws(
        () => resolveClientOptions({ [name]: value } as ClientOptions),
        (e) => e instanceof TypeError && e.message.includes(name),
      );
    });
  }

  it("throws a TypeError naming an unknown key", () => {
    assert.throws(
      () => resolveClientOptions({ maxHop: 3 } as unknown as ClientOptions),
      (e) => e instanceof TypeError && e.message.includes('"maxHop"'),
    );
    assert.throws(() => resolveClientOptions("fast" as unknown as ClientOptions), TypeError);
  });
});
