// Runs ONLY inside a loopback-only network namespace (tests/netns/netns.test.ts starts it with
// `unshare -rn`). These tests hand the transport addresses that are not loopback; inside the
// namespace there is no route for them, so nothing can leave this machine even if the code is wrong.
import assert from "node:assert/strict";
import { networkInterfaces } from "node:os";
import { after, before, describe, it } from "node:test";
import { CanonError } from "../../src/errors/canon-error.js";
import { defaultResolver } from "../../src/resolve/guard/default-resolver.js";
import { type ResolvedNetPolicy, resolveDestination } from "../../src/resolve/guard/destination.js";
import { createPinnedTransport } from "../../src/resolve/http/pinned-transport.js";
import type { TransportRequest, TransportResponse } from "../../src/resolve/http/transport.js";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";

// Refuse to run anywhere but a namespace whose only interface is loopback.
const interfaces = Object.keys(networkInterfaces());
if (interfaces.length !== 1 || interfaces[0] !== "lo") {
  console.error(`REFUSING TO RUN: not in a loopback-only namespace (interfaces: ${interfaces.join(", ")})`);
  process.exit(3);
}

async function drain(response: TransportResponse): Promise<string> {
  let text = "";
  for await (const chunk of response.body) text += Buffer.from(chunk).toString("utf8");
  return text;
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CanonError, `raw error escaped: ${String(error)}`);
    return { code: error.code, message: error.message };
  }
  return { code: "none", message: "" };
}

// One GET to already validated addresses, with short timeouts: what every hop hands the transport.
function getRequest(url: URL, addresses: readonly string[], signal: AbortSignal): TransportRequest {
  return {
    url,
    method: "GET",
    headers: {},
    addresses,
    signal,
    connectTimeoutMs: 2000,
    readTimeoutMs: 2000,
    writeTimeoutMs: 2000,
  };
}

describe("DNS rebinding: the address validated is the address dialled", () => {
  let target: LocalServer;
  let trap: LocalServer;
  before(async () => {
    target = await startLocalServer({ handler: (_q, r) => r.end("target") });
    // Same port on 127.0.0.2: a rebinding answer would reach it if anything looked the name up again.
    trap = await startLocalServer({
      host: "127.0.0.2",
      port: target.port,
      handler: (_q, r) => r.end("trap"),
    });
  });
  after(async () => {
    await target.close();
    await trap.close();
  });

  function rebindingPolicy(overrides: Partial<ResolvedNetPolicy> = {}) {
    let calls = 0;
    const policy: ResolvedNetPolicy = {
      allowedPorts: [target.port],
      allowPrivateNetworks: false,
      allowedNetworks: ["127.0.0.1/32"],
      // First answer passes the policy; every later one points at the trap.
      resolver: async (hostname) => {
        assert.equal(hostname, "rebind.test");
        calls++;
        return calls === 1 ? ["127.0.0.1"] : ["127.0.0.2"];
      },
      ...overrides,
    };
    return { policy, calls: () => calls };
  }

  it("connects to the validated 127.0.0.1 although the name now answers 127.0.0.2", async () => {
    const { policy, calls } = rebindingPolicy();
    const transport = createPinnedTransport();
    const url = new URL(`http://rebind.test:${target.port}/`);
    try {
      const signal = new AbortController().signal;
      const addresses = await resolveDestination(url, policy, signal);
      assert.deepEqual(addresses, ["127.0.0.1"]);
      for (let i = 0; i < 3; i++) {
        const response = await transport.request(getRequest(url, addresses, signal));
        assert.equal(await drain(response), "target");
      }
      assert.equal(calls(), 1, "the transport never looked the name up again");
      // The next hop repeats DNS and the policy: the rebinding answer is refused before any connect.
      const second = await codeOf(resolveDestination(url, policy, signal));
      assert.equal(second.code, "blocked-address");
      assert.match(second.message, /127\.0\.0\.2/);
      assert.equal(trap.connections, 0, "the 127.0.0.2 listener was contacted");
      assert.equal(target.requests >= 3, true);
    } finally {
      await transport.close();
    }
  });

  it("keeps dialling the validated address even with the policy relaxed", async () => {
    const { policy } = rebindingPolicy({ allowPrivateNetworks: true, allowedNetworks: [] });
    const transport = createPinnedTransport();
    const url = new URL(`http://rebind.test:${target.port}/x`);
    try {
      const signal = new AbortController().signal;
      const addresses = await resolveDestination(url, policy, signal);
      const response = await transport.request(getRequest(url, addresses, signal));
      assert.equal(await drain(response), "target");
      assert.equal(trap.connections, 0);
    } finally {
      await transport.close();
    }
  });
});

describe("private and public DNS answers end to end", () => {
  const signal = new AbortController().signal;
  const policyAnswering = (answers: string[]): ResolvedNetPolicy => ({
    allowedPorts: [80, 443],
    allowPrivateNetworks: false,
    allowedNetworks: ["127.0.0.1/32"],
    resolver: async () => answers,
  });

  it("a private answer is refused before any socket opens", async () => {
    const transport = createPinnedTransport();
    for (const answers of [["10.0.0.1"], ["127.0.0.1", "10.0.0.1"], ["192.168.1.1"], ["169.254.169.254"]]) {
      const result = await codeOf(
        resolveDestination(new URL("http://internal.test/"), policyAnswering(answers), signal),
      );
      assert.equal(result.code, "blocked-address", answers.join());
      assert.ok(result.message.includes(answers.at(-1) as string), result.message);
    }
    assert.equal(transport.socketsOpened, 0);
    await transport.close();
  });

  it("a public answer passes the policy and fails as connection-failed here, where nothing routes", async () => {
    const transport = createPinnedTransport();
    try {
      const url = new URL("http://public.test/");
      const addresses = await resolveDestination(url, policyAnswering(["93.184.216.34"]), signal);
      assert.deepEqual(addresses, ["93.184.216.34"]);
      const result = await codeOf(
        transport.request({
          url,
          method: "HEAD",
          headers: {},
          addresses,
          signal,
          connectTimeoutMs: 1000,
          readTimeoutMs: 1000,
          writeTimeoutMs: 1000,
        }),
      );
      assert.equal(result.code, "connection-failed", result.message);
      assert.match(result.message, /ENETUNREACH|EHOSTUNREACH|unreachable/i);
      assert.equal(transport.socketsOpened, 0);
    } finally {
      await transport.close();
    }
  });
});

// The system resolver is exercised here too: a lookup that misses /etc/hosts would query a DNS server,
// and inside the namespace no query can leave.
describe("the default resolver", () => {
  it("returns every address of a name the system knows", async () => {
    const answers = await defaultResolver("localhost", new AbortController().signal);
    assert.ok(answers.length > 0);
    assert.ok(
      answers.every((a) => a === "127.0.0.1" || a === "::1"),
      answers.join(),
    );
  });

  it("rejects with the abort reason once the signal has fired", async () => {
    const controller = new AbortController();
    const reason = new Error("deadline");
    controller.abort(reason);
    await assert.rejects(defaultResolver("localhost", controller.signal), (e: unknown) => e === reason);
  });

  it("an unknown name fails the hop as connection-failed with the resolver's error as cause", async () => {
    const policy: ResolvedNetPolicy = {
      allowedPorts: [80],
      allowPrivateNetworks: false,
      allowedNetworks: [],
      resolver: defaultResolver,
    };
    try {
      await resolveDestination(new URL("http://nowhere.test/"), policy, new AbortController().signal);
      assert.fail("resolved");
    } catch (error) {
      assert.ok(error instanceof CanonError);
      assert.equal(error.code, "connection-failed");
      assert.match(
        String((error.cause as { code?: string }).code),
        /ENOTFOUND|EAI_AGAIN|ESERVFAIL|ECONNREFUSED/,
      );
    }
  });
});
