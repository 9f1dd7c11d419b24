import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient as createRedisClient } from "redis";
import { type HostLimitRedis, limitHosts } from "../../src/fleet/host-limit.js";
import type { Transport, TransportRequest, TransportResponse } from "../../src/resolve/http/transport.js";
import { startRedisServer, testRedisUrl } from "../helpers/redis-server.js";

type Redis = ReturnType<typeof createRedisClient>;

// No network: the injected transport answers after `holdMs`, counting what is in flight per host.
function countingTransport(holdMs: number, status: (n: number) => [number, Record<string, string>]) {
  let inFlight = 0;
  let peak = 0;
  const sent: number[] = [];
  const transport: Transport = {
    async request(): Promise<TransportResponse> {
      inFlight++;
      peak = Math.max(peak, inFlight);
      sent.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      const [code, headers] = status(sent.length);
      return {
        status: code,
        headers,
        body: (async function* () {})(),
        async dispose() {
          inFlight--;
        },
      };
    },
  };
  return { transport, sent, peak: () => peak };
}

function request(host: string): TransportRequest {
  return {
    url: new URL(`http://${host}/`),
    method: "GET",
    headers: {},
    addresses: ["127.0.0.1"],
    signal: AbortSignal.timeout(10_000),
    connectTimeoutMs: 1_000,
    readTimeoutMs: 1_000,
    writeTimeoutMs: 1_000,
  };
}

async function send(t: Transport, host: string): Promise<number> {
  const response = await t.request(request(host));
  await response.dispose();
  return response.status;
}

describe("limitHosts (real Redis, several limiters as several workers)", () => {
  let redis: Redis;
  before(async () => {
    redis = createRedisClient({ url: testRedisUrl() });
    await redis.connect();
  });
  after(() => redis.close());

  it("never more than the limit in flight across workers; slots are reused, not taken per request", {
    timeout: 30_000,
  }, async () => {
    const prefix = `canonurl:test:hl${process.pid}a:`;
    const inner = countingTransport(3, () => [200, {}]);
    let taken = 0;
    const counted: HostLimitRedis = {
      // Slots taken (not polls of a full host, which are the cost of waiting).
      eval: async (script, options) => {
        const held = await redis.eval(script, options);
        if (Number(held) > 0) taken++;
        return held;
      },
      evalSha: async (sha1, options) => {
        const held = await redis.evalSha(sha1, options);
        if (Number(held) > 0) taken++;
        return held;
      },
      zRem: (key, member) => redis.zRem(key, member),
      set: (key, value, options) => redis.set(key, value, options),
    };
    const workers = [1, 2, 3].map(() =>
      limitHosts(inner.transport, counted, { limit: 2, prefix, leaseMs: 20_000, maxPauseMs: 5_000 }),
    );
    const PER_WORKER = 60;
    await Promise.all(
      workers.flatMap((w) => Array.from({ length: PER_WORKER }, () => send(w, "one.test:80"))),
    );
    assert.equal(inner.sent.length, 3 * PER_WORKER);
    assert.equal(inner.peak(), 2, "the limit was reached and never passed");
    assert.ok(taken < inner.sent.length / 2, `${taken} slots taken for ${inner.sent.length} requests`);
    await Promise.all(workers.map((w) => w.close?.()));
    // Every slot went back.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await redis.zCard(`${prefix}host:one.test:80`), 0);
  });

  it("a Retry-After pauses the host for the worker that saw it and, within 250 ms, for the others", {
    timeout: 30_000,
  }, async () => {
    const prefix = `canonurl:test:hl${process.pid}b:`;
    // The first request answers 429 with Retry-After: 1; every other one 200.
    const inner = countingTransport(1, (n) => (n === 2 ? [429, { "retry-after": "1" }] : [200, {}]));
    const options = { limit: 4, prefix, leaseMs: 20_000, maxPauseMs: 5_000 };
    const a = limitHosts(inner.transport, redis, options);
    const b = limitHosts(inner.transport, redis, options);
    assert.equal(await send(b, "busy.test:80"), 200);
    assert.equal(await send(a, "busy.test:80"), 429);
    const pausedAt = Date.now();
    const sentBefore = inner.sent.length;
    // a at once, b after its slots may no longer carry requests.
    const fromA = send(a, "busy.test:80");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const fromB = send(b, "busy.test:80");
    assert.deepEqual(await Promise.all([fromA, fromB]), [200, 200]);
    const later = inner.sent.slice(sentBefore);
    assert.equal(later.length, 2);
    for (const at of later)
      assert.ok(at - pausedAt >= 900, `a request went out ${at - pausedAt} ms into the pause`);
    await a.close?.();
    await b.close?.();
  });

  // Two workers of a host with one slot and 600 ms leases; a's request, answered after `holdMs`, is
  // in flight when this returns.
  async function oneSlotHeld(tag: string, host: string, holdMs: number) {
    const prefix = `canonurl:test:hl${process.pid}${tag}:`;
    const inner = countingTransport(holdMs, () => [200, {}]);
    const options = { limit: 1, prefix, leaseMs: 600, maxPauseMs: 5_000 };
    const a = limitHosts(inner.transport, redis, options);
    const b = limitHosts(inner.transport, redis, options);
    const fromA = send(a, host);
    while (inner.sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return { prefix, inner, a, b, fromA };
  }

  it("a request in flight for three leases keeps its slot: its holder renews it", {
    timeout: 30_000,
  }, async () => {
    const { prefix, inner, a, b, fromA } = await oneSlotHeld("c", "long.test:8080", 1_800);
    const fromB = send(b, "long.test:8080");
    assert.deepEqual(await Promise.all([fromA, fromB]), [200, 200]);
    // Unrenewed, the slot would have expired 600 ms in and b's request gone out beside a's.
    assert.equal(inner.peak(), 1, "b's request went out while a's was in flight");
    const [first, second] = inner.sent as [number, number];
    assert.ok(second - first >= 1_700, `b's request went out ${second - first} ms after a's`);
    await a.close?.();
    await b.close?.();
    assert.equal(await redis.zCard(`${prefix}host:long.test:8080`), 0);
  });

  it("a held slot the set lost (Redis restarted from an older snapshot) is put back by its holder", {
    timeout: 30_000,
  }, async () => {
    const { prefix, inner, a, b, fromA } = await oneSlotHeld("f", "lost.test:8080", 1_500);
    // As a restart from a snapshot older than the slot leaves it: the set without a's slot.
    await redis.del(`${prefix}host:lost.test:8080`);
    // Two renewals later (every 120 ms) the set counts a's request again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await redis.zCard(`${prefix}host:lost.test:8080`), 1);
    const fromB = send(b, "lost.test:8080");
    assert.deepEqual(await Promise.all([fromA, fromB]), [200, 200]);
    assert.equal(inner.peak(), 1, "b's request went out while a's was in flight");
    await a.close?.();
    await b.close?.();
  });

  it("a slot nobody renews (its worker died, or a Redis restart restored it) frees the host at its lease end", {
    timeout: 30_000,
  }, async () => {
    const prefix = `canonurl:test:hl${process.pid}d:`;
    // The host's one slot, held by no live limiter: what a snapshot restores after its holder gave
    // it back to the server that went away.
    await redis.zAdd(`${prefix}host:ghost.test:8080`, { score: Date.now() + 600, value: "ghost" });
    const inner = countingTransport(1, () => [200, {}]);
    const a = limitHosts(inner.transport, redis, { limit: 1, prefix, leaseMs: 600, maxPauseMs: 5_000 });
    const started = Date.now();
    assert.equal(await send(a, "ghost.test:8080"), 200);
    const waited = (inner.sent[0] as number) - started;
    assert.ok(waited >= 500 && waited < 5_000, `sent ${waited} ms after the ghost slot was taken`);
    await a.close?.();
  });

  it("keeps state for the hosts in use only: 2,000 hosts met, none kept once their requests are done", {
    timeout: 30_000,
  }, async () => {
    const prefix = `canonurl:test:hl${process.pid}e:`;
    const inner = countingTransport(1, () => [200, {}]);
    const a = limitHosts(inner.transport, redis, { limit: 4, prefix, leaseMs: 5_000, maxPauseMs: 5_000 });
    let most = 0;
    for (let batch = 0; batch < 20; batch++) {
      const sends = Array.from({ length: 100 }, (_, i) => send(a, `h${batch * 100 + i}.test:8080`));
      most = Math.max(most, a.hostsKept);
      assert.deepEqual(new Set(await Promise.all(sends)), new Set([200]));
    }
    assert.equal(inner.sent.length, 2_000);
    assert.ok(most >= 100, `${most} hosts kept while 100 requests were in flight`);
    // A slot kept for a next request to its host goes back after 50 ms idle, and its host with it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(a.hostsKept, 0);
    for (const h of [0, 999, 1_999]) assert.equal(await redis.zCard(`${prefix}host:h${h}.test:8080`), 0);
    await a.close?.();
  });

  it("runs its scripts by SHA-1 (EVALSHA) and sends them whole again when Redis lost them (NOSCRIPT)", {
    timeout: 30_000,
  }, async () => {
    // A server of its own: SCRIPT FLUSH on the shared one would pull the scripts from under the
    // other tests' workers.
    const server = await startRedisServer();
    const own: Redis = createRedisClient({ url: server.url });
    try {
      await own.connect();
      const sent = { eval: 0, evalSha: 0, noscript: 0 };
      const counted: HostLimitRedis = {
        eval: (script, options) => {
          sent.eval++;
          return own.eval(script, options);
        },
        evalSha: async (sha1, options) => {
          sent.evalSha++;
          try {
            return await own.evalSha(sha1, options);
          } catch (error) {
            if ((error as Error).message.startsWith("NOSCRIPT")) sent.noscript++;
            throw error;
          }
        },
        zRem: (key, member) => own.zRem(key, member),
        set: (key, value, options) => own.set(key, value, options),
      };
      const prefix = `canonurl:test:hl${process.pid}f:`;
      const inner = countingTransport(1, () => [200, {}]);
      // Each request on its own host: one slot taken from Redis per request, none reused.
      // Leases renewed every 12 s: no RENEW runs within the test to blur the count.
      const a = limitHosts(inner.transport, counted, {
        limit: 2,
        prefix,
        leaseMs: 60_000,
        maxPauseMs: 5_000,
      });
      for (let i = 0; i < 20; i++) assert.equal(await send(a, `s${i}.test:80`), 200);
      assert.deepEqual(sent, { eval: 1, evalSha: 20, noscript: 1 }, "sent whole once, then by SHA-1");
      // Redis forgets its scripts (as a restart does): the next take sends ACQUIRE again, once.
      await own.sendCommand(["SCRIPT", "FLUSH"]);
      for (let i = 20; i < 30; i++) assert.equal(await send(a, `s${i}.test:80`), 200);
      assert.deepEqual(sent, { eval: 2, evalSha: 30, noscript: 2 });
      assert.equal(inner.sent.length, 30);
      await a.close?.();
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const i of [0, 29]) assert.equal(await own.zCard(`${prefix}host:s${i}.test:80`), 0);
    } finally {
      await own.close().catch(() => {});
      await server.stop();
    }
  });
});
