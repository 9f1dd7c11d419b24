import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createFixedResolver } from "../../src/cli/flags/fixed-resolver.js";
import { networkPolicyFromFlags, parseResolveFlag } from "../../src/cli/flags/network-flags.js";
import { UsageError } from "../../src/cli/io/io.js";

const signal = new AbortController().signal;

describe("--resolve HOST:ADDRESS", () => {
  it("splits host and address, IPv6 with or without brackets", () => {
    assert.deepEqual(parseResolveFlag("Origin.test:127.0.0.1"), {
      host: "origin.test",
      address: "127.0.0.1",
    });
    assert.deepEqual(parseResolveFlag("v6.test:[::1]"), { host: "v6.test", address: "::1" });
    assert.deepEqual(parseResolveFlag("v6.test:::1"), { host: "v6.test", address: "::1" });
  });

  it("refuses a value that is not HOST:IP", () => {
    for (const bad of [
      "origin.test",
      "origin.test:",
      ":127.0.0.1",
      "origin.test:localhost",
      "a b:1.2.3.4",
      "o.test:1.2.3.4:80",
      "o.test:[::1",
    ]) {
      assert.throws(() => parseResolveFlag(bad), UsageError, bad);
    }
  });

  it("answers listed names (case and trailing dot aside) and asks the fallback for every other one", async () => {
    const asked: string[] = [];
    const resolver = createFixedResolver(new Map([["origin.test", ["127.0.0.1", "::1"]]]), async (name) => {
      asked.push(name);
      throw new Error("not in the table");
    });
    assert.deepEqual(await resolver("ORIGIN.test.", signal), ["127.0.0.1", "::1"]);
    await assert.rejects(resolver("other.test", signal), /not in the table/);
    assert.deepEqual(asked, ["other.test"]);
    const aborted = AbortSignal.abort(new Error("stop"));
    await assert.rejects(resolver("origin.test", aborted), /stop/);
  });
});

describe("networkPolicyFromFlags", () => {
  it("maps each flag to its client option; repeated --resolve names collect their addresses", async () => {
    const options = networkPolicyFromFlags(
      {
        "allow-network": ["127.0.0.1/32", "::1/128"],
        "allowed-port": ["8080", "443"],
        resolve: ["a.test:127.0.0.1", "a.test:[::1]", "b.test:127.0.0.2"],
      },
      () => Promise.reject(new Error("no DNS")),
    );
    assert.deepEqual(options.allowedNetworks, ["127.0.0.1/32", "::1/128"]);
    assert.deepEqual(options.allowedPorts, [8080, 443]);
    assert.deepEqual(await options.resolver?.("a.test", signal), ["127.0.0.1", "::1"]);
    assert.deepEqual(await options.resolver?.("b.test", signal), ["127.0.0.2"]);
  });

  it("leaves the library defaults alone when no flag is given", () => {
    assert.deepEqual(networkPolicyFromFlags({}), {});
  });

  it("a bad CIDR or port is a usage error naming the flag", () => {
    assert.throws(() => networkPolicyFromFlags({ "allow-network": ["127.0.0.1/33"] }), /--allow-network/);
    assert.throws(() => networkPolicyFromFlags({ "allow-network": ["example.test/8"] }), /--allow-network/);
    for (const port of ["0", "65536", "80a", "-1", ""]) {
      assert.throws(() => networkPolicyFromFlags({ "allowed-port": [port] }), /--allowed-port/, port);
    }
  });
});
