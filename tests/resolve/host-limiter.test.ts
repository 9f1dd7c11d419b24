// The host limiter's queue through the transport seam: a stub transport that answers only when the
// test says so, so order, hand-over and give-back are observed exactly (the integration tests in
// tests/integration/politeness.test.ts count the same against a real server).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { limitHostConcurrency } from "../../src/resolve/host-limiter.js";
import type { Transport, TransportRequest, TransportResponse } from "../../src/resolve/http/transport.js";

interface Call {
  path: string;
  answer(): void;
  fail(error: Error): void;
  disposed: number;
}

function stubTransport(): { transport: Transport; calls: Call[] } {
  const calls: Call[] = [];
  const transport: Transport = {
    request(request: TransportRequest) {
      return new Promise<TransportResponse>((resolve, reject) => {
        const call: Call = {
          path: request.url.pathname,
          disposed: 0,
          answer: () =>
            resolve({
              status: 200,
              headers: {},
              body: (async function* () {})(),
              async dispose() {
                call.disposed++;
              },
            }),
          fail: reject,
        };
        calls.push(call);
      });
    },
  };
  return { transport, calls };
}

function request(path: string, signal = new AbortController().signal, host = "a.test"): TransportRequest {
  return {
    url: new URL(`http://${host}${path}`),
    method: "HEAD",
    headers: {},
    addresses: ["127.0.0.1"],
    signal,
    connectTimeoutMs: 1000,
    readTimeoutMs: 1000,
    writeTimeoutMs: 1000,
  };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("limitHostConcurrency", () => {
  it("hands slots over in arrival order, one per disposed response, per host name", async () => {
    const { transport, calls } = stubTransport();
    const limited = limitHostConcurrency(transport, 2);
    const responses = ["/1", "/2", "/3", "/4", "/5"].map((p) => limited.request(request(p)));
    const other = limited.request(request("/other", undefined, "b.test"));
    await turn();
    assert.deepEqual(
      calls.map((c) => c.path),
      ["/1", "/2", "/other"],
    );
    calls[1]?.answer();
    await (await responses[1])?.dispose();
    await turn();
    assert.deepEqual(
      calls.map((c) => c.path),
      ["/1", "/2", "/other", "/3"],
    );
    calls[0]?.answer();
    await (await responses[0])?.dispose();
    await turn();
    assert.equal(calls.at(-1)?.path, "/4");
    calls[2]?.answer();
    await other;
  });

  it("a response disposed twice gives its slot back once", async () => {
    const { transport, calls } = stubTransport();
    const limited = limitHostConcurrency(transport, 1);
    const first = limited.request(request("/1"));
    await turn();
    calls[0]?.answer();
    const response = await first;
    await response.dispose();
    await response.dispose();
    assert.equal(calls[0]?.disposed, 2);
    limited.request(request("/2"));
    limited.request(request("/3"));
    await turn();
    assert.deepEqual(
      calls.map((c) => c.path),
      ["/1", "/2"],
    );
  });

  it("a failed request gives its slot back", async () => {
    const { transport, calls } = stubTransport();
    const limited = limitHostConcurrency(transport, 1);
    const first = limited.request(request("/1"));
    const second = limited.request(request("/2"));
    await turn();
    calls[0]?.fail(new Error("reset"));
    await assert.rejects(first, /reset/);
    await turn();
    assert.equal(calls.at(-1)?.path, "/2");
    calls[1]?.answer();
    await second;
  });

  it("waiters whose signal aborts leave the queue with its reason and take no slot", async () => {
    const { transport, calls } = stubTransport();
    const limited = limitHostConcurrency(transport, 1);
    const held = limited.request(request("/held"));
    const controller = new AbortController();
    const abandoned = Array.from({ length: 2_000 }, (_, i) =>
      limited.request(request(`/w${i}`, controller.signal)),
    );
    const patient = limited.request(request("/patient"));
    controller.abort(new Error("gave up"));
    for (const waiter of abandoned) await assert.rejects(waiter, /gave up/);
    await turn();
    calls[0]?.answer();
    await (await held).dispose();
    await turn();
    // The 2,000 abandoned ones were passed over: the slot went straight to the next live waiter.
    assert.deepEqual(
      calls.map((c) => c.path),
      ["/held", "/patient"],
    );
    calls[1]?.answer();
    await patient;
    await assert.rejects(limited.request(request("/late", controller.signal)), /gave up/);
  });
});
