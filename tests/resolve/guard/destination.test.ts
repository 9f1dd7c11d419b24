import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CanonError } from "../../../src/errors/canon-error.js";
import { RedirectError } from "../../../src/errors/redirect-error.js";
import { type ResolvedNetPolicy, resolveDestination } from "../../../src/resolve/guard/destination.js";

// Stub resolvers only: nothing here opens a socket, so answers may name any address.
function stubPolicy(answers: Record<string, string[]>, overrides: Partial<ResolvedNetPolicy> = {}) {
  const calls: string[] = [];
  const policy: ResolvedNetPolicy = {
    allowedPorts: [80, 443],
    allowPrivateNetworks: false,
    allowedNetworks: [],
    resolver: async (hostname) => {
      calls.push(hostname);
      const found = answers[hostname];
      if (found === undefined)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return found;
    },
    ...overrides,
  };
  return { policy, calls };
}

const never = new AbortController().signal;

async function rejectsWith(promise: Promise<unknown>, code: string, pattern?: RegExp): Promise<CanonError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CanonError, `not a CanonError: ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (pattern !== undefined) assert.match(error.message, pattern);
    return error;
  }
  assert.fail(`expected ${code}`);
}

describe("resolveDestination: the order of checks", () => {
  it("refuses userinfo first, without leaking the password", async () => {
    const { policy, calls } = stubPolicy({});
    const error = await rejectsWith(
      resolveDestination(new URL("http://user:secret@a.test:22/"), policy, never),
      "userinfo",
    );
    assert.doesNotMatch(error.message, /secret/);
    assert.match(error.message, /http:\/\/a\.test:22\//);
    await rejectsWith(resolveDestination(new URL("http://user@a.test/"), policy, never), "userinfo");
    assert.deepEqual(calls, []);
  });

  it("refuses ports outside allowedPorts, using the scheme default when none is written", async () => {
    const { policy, calls } = stubPolicy({ "a.test": ["93.184.216.34"] });
    await rejectsWith(
      resolveDestination(new URL("http://a.test:22/"), policy, never),
      "blocked-port",
      /port 22/,
    );
    await rejectsWith(resolveDestination(new URL("http://a.test:8080/"), policy, never), "blocked-port");
    assert.deepEqual(calls, []);
    assert.deepEqual(await resolveDestination(new URL("http://a.test/"), policy, never), ["93.184.216.34"]);
    assert.deepEqual(await resolveDestination(new URL("https://a.test/"), policy, never), ["93.184.216.34"]);
    // https://a.test:443/ and http://a.test:80/ carry an empty port; the default applies.
    const only80 = stubPolicy({ "a.test": ["93.184.216.34"] }, { allowedPorts: [80] });
    await rejectsWith(
      resolveDestination(new URL("https://a.test/"), only80.policy, never),
      "blocked-port",
      /443/,
    );
  });

  it("refuses localhost names before any lookup", async () => {
    const { policy, calls } = stubPolicy({
      localhost: ["93.184.216.34"],
      "app.localhost": ["93.184.216.34"],
    });
    for (const input of [
      "http://localhost/",
      "http://LOCALHOST./",
      "http://app.localhost/",
      "http://a.b.localhost./",
    ]) {
      await rejectsWith(resolveDestination(new URL(input), policy, never), "blocked-address", /localhost/);
    }
    assert.deepEqual(calls, []);
  });

  it("checks IP literals directly, in every form the URL parser accepts", async () => {
    const { policy, calls } = stubPolicy({});
    for (const input of [
      "http://0x7f.1/",
      "http://2130706433/",
      "http://0177.0.0.1/",
      "http://10.0.0.1/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://[64:ff9b::10.0.0.1]/",
      "http://[2002:a00:1::]/",
      "http://[::1]/",
    ]) {
      await rejectsWith(
        resolveDestination(new URL(input), policy, never),
        "blocked-address",
        /address \S+ is not allowed/,
      );
    }
    assert.deepEqual(await resolveDestination(new URL("http://93.184.216.34/"), policy, never), [
      "93.184.216.34",
    ]);
    assert.deepEqual(await resolveDestination(new URL("http://[2606:4700::1]/"), policy, never), [
      "2606:4700::1",
    ]);
    assert.deepEqual(calls, [], "an IP literal never goes to the resolver");
  });

  it("refuses non-HTTP(S) URLs", async () => {
    const { policy } = stubPolicy({});
    await rejectsWith(resolveDestination(new URL("ftp://a.test/"), policy, never), "unsupported-scheme");
  });
});

describe("resolveDestination: DNS answers", () => {
  it("returns every validated answer, deduplicated, in order", async () => {
    const { policy, calls } = stubPolicy({ "a.test": ["93.184.216.34", "2606:4700::1", "93.184.216.34"] });
    assert.deepEqual(await resolveDestination(new URL("https://a.test/x"), policy, never), [
      "93.184.216.34",
      "2606:4700::1",
    ]);
    assert.deepEqual(calls, ["a.test"]);
  });

  it("fails the hop if ANY answer is not publicly routable, naming it", async () => {
    const cases: [string[], string][] = [
      [["93.184.216.34", "10.0.0.1"], "10.0.0.1"],
      [["127.0.0.1", "93.184.216.34"], "127.0.0.1"],
      [["2606:4700::1", "::ffff:7f00:1"], "::ffff:7f00:1"],
      [["2606:4700::1", "fd00::1"], "fd00::1"],
      [["93.184.216.34", "169.254.169.254"], "169.254.169.254"],
      [["0177.0.0.1"], "0177.0.0.1"],
    ];
    for (const [answers, bad] of cases) {
      const { policy } = stubPolicy({ "mixed.test": answers });
      const error = await rejectsWith(
        resolveDestination(new URL("http://mixed.test/"), policy, never),
        "blocked-address",
      );
      assert.ok(error.message.includes(`address ${bad} `), error.message);
      assert.equal(error.url, "http://mixed.test/");
    }
  });

  it("checks a trailing-dot name as the same name", async () => {
    const { policy, calls } = stubPolicy({ "example.test": ["10.0.0.1"], "public.test": ["93.184.216.34"] });
    await rejectsWith(
      resolveDestination(new URL("http://example.test./"), policy, never),
      "blocked-address",
      /10\.0\.0\.1/,
    );
    assert.deepEqual(await resolveDestination(new URL("http://public.test./"), policy, never), [
      "93.184.216.34",
    ]);
    assert.deepEqual(calls, ["example.test", "public.test"]);
  });

  it("maps resolver failures and empty answers to connection-failed with the cause", async () => {
    const { policy } = stubPolicy({ "empty.test": [] });
    const missing = await rejectsWith(
      resolveDestination(new URL("http://unknown.test/"), policy, never),
      "connection-failed",
    );
    assert.match(String((missing.cause as Error).message), /ENOTFOUND unknown\.test/);
    await rejectsWith(
      resolveDestination(new URL("http://empty.test/"), policy, never),
      "connection-failed",
      /no address/,
    );
  });

  it("lets a CanonError from the resolver through unchanged", async () => {
    const own = new RedirectError("redirect-loop", "custom");
    const { policy } = stubPolicy({}, { resolver: async () => Promise.reject(own) });
    assert.equal(
      await resolveDestination(new URL("http://a.test/"), policy, never).catch((e: unknown) => e),
      own,
    );
  });

  it("times out under the deadline even when the resolver ignores the signal", async () => {
    const { policy } = stubPolicy({}, { resolver: () => new Promise<string[]>(() => {}) });
    const started = Date.now();
    // AbortSignal.timeout's timer is unref'd; a ref'd timer keeps the test's event loop alive meanwhile.
    const keepAlive = setTimeout(() => {}, 5000);
    const error = await rejectsWith(
      resolveDestination(new URL("http://slow.test/"), policy, AbortSignal.timeout(50)),
      "timeout",
    );
    clearTimeout(keepAlive);
    assert.ok(Date.now() - started < 2000);
    assert.equal((error.cause as Error).name, "TimeoutError");
  });

  it("does not call the resolver once the deadline has passed", async () => {
    const { policy, calls } = stubPolicy({ "a.test": ["93.184.216.34"] });
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(resolveDestination(new URL("http://a.test/"), policy, controller.signal), "aborted");
    await rejectsWith(
      resolveDestination(
        new URL("http://a.test/"),
        policy,
        AbortSignal.abort(new DOMException("total timeout", "TimeoutError")),
      ),
      "timeout",
    );
    assert.deepEqual(calls, []);
    const own = new RedirectError("too-many-hops", "stop");
    const withReason = new AbortController();
    withReason.abort(own);
    assert.equal(
      await resolveDestination(new URL("http://a.test/"), policy, withReason.signal).catch((e: unknown) => e),
      own,
    );
  });

  it("passes the signal to the resolver", async () => {
    let seen: AbortSignal | undefined;
    const { policy } = stubPolicy(
      {},
      {
        resolver: async (_hostname, signal) => {
          seen = signal;
          return ["93.184.216.34"];
        },
      },
    );
    const controller = new AbortController();
    await resolveDestination(new URL("http://a.test/"), policy, controller.signal);
    assert.equal(seen, controller.signal);
  });
});

describe("resolveDestination: relaxing the policy", () => {
  it("allowedNetworks lets listed CIDRs through and nothing else", async () => {
    const { policy } = stubPolicy(
      { "one.test": ["127.0.0.1"], "two.test": ["127.0.0.2"] },
      { allowedNetworks: ["127.0.0.1/32"] },
    );
    assert.deepEqual(await resolveDestination(new URL("http://one.test/"), policy, never), ["127.0.0.1"]);
    await rejectsWith(
      resolveDestination(new URL("http://two.test/"), policy, never),
      "blocked-address",
      /127\.0\.0\.2/,
    );
    assert.deepEqual(await resolveDestination(new URL("http://127.0.0.1/"), policy, never), ["127.0.0.1"]);
  });

  it("allowPrivateNetworks relaxes only the address check", async () => {
    const { policy } = stubPolicy({ "lan.test": ["10.0.0.1", "fd00::1"] }, { allowPrivateNetworks: true });
    assert.deepEqual(await resolveDestination(new URL("http://lan.test/"), policy, never), [
      "10.0.0.1",
      "fd00::1",
    ]);
    await rejectsWith(resolveDestination(new URL("http://u:p@lan.test/"), policy, never), "userinfo");
    await rejectsWith(resolveDestination(new URL("http://lan.test:22/"), policy, never), "blocked-port");
  });

  it("allowPrivateNetworks admits localhost names (loopback by definition), allowedNetworks does not", async () => {
    const open = stubPolicy({ localhost: ["127.0.0.1"] }, { allowPrivateNetworks: true });
    assert.deepEqual(await resolveDestination(new URL("http://localhost/"), open.policy, never), [
      "127.0.0.1",
    ]);
    const narrow = stubPolicy({ localhost: ["127.0.0.1"] }, { allowedNetworks: ["127.0.0.1/32"] });
    await rejectsWith(
      resolveDestination(new URL("http://localhost/"), narrow.policy, never),
      "blocked-address",
    );
    assert.deepEqual(narrow.calls, []);
  });
});
