// Politeness against real local servers: no more than hostConcurrency requests in flight to one
// host name per client, and a 429/503 retried once when its Retry-After fits maxRetryAfterMs and
// the deadline, else an http-status error that names the Retry-After.
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { isFetchError, isTimeoutError } from "../../src/errors/guards.js";
import { createClient } from "../../src/resolve/client.js";
import type { Outcome } from "../../src/resolve/types.js";
import { type Site, startSite } from "./site.js";

const hostOf = (request: IncomingMessage): string => (request.headers.host ?? "").replace(/:\d+$/, "");

/** Per host name: requests in flight and connections open now, and the most of each ever seen. */
class HostLoad {
  readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();
  readonly open = new Map<string, number>();
  readonly maxOpen = new Map<string, number>();
  private readonly socketHost = new WeakMap<Socket, string>();

  enter(request: IncomingMessage, response: ServerResponse): void {
    const host = hostOf(request);
    bump(this.inFlight, this.maxInFlight, host, 1);
    response.once("close", () => bump(this.inFlight, this.maxInFlight, host, -1));
    // A connection counts for the host of its first request, until it closes.
    const socket = request.socket;
    if (!this.socketHost.has(socket)) {
      this.socketHost.set(socket, host);
      bump(this.open, this.maxOpen, host, 1);
      socket.once("close", () => bump(this.open, this.maxOpen, host, -1));
    }
  }

  reset(): void {
    this.maxInFlight.clear();
    this.maxOpen.clear();
  }
}

function bump(now: Map<string, number>, max: Map<string, number>, host: string, by: number): void {
  const value = (now.get(host) ?? 0) + by;
  now.set(host, value);
  if (value > (max.get(host) ?? 0)) max.set(host, value);
}

async function all(batch: AsyncIterable<Outcome>): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for await (const outcome of batch) out.push(outcome);
  return out;
}

describe("politeness", () => {
  let site: Site;
  const load = new HostLoad();
  /** Arrival times (performance.now()) of every request, by path. */
  const arrivals = new Map<string, number[]>();
  before(async () => {
    site = await startSite((request, response) => {
      load.enter(request, response);
      const path = request.url ?? "/";
      const times = arrivals.get(path) ?? [];
      times.push(performance.now());
      arrivals.set(path, times);
      const nth = times.length;
      const plain = (status: number, headers: Record<string, string> = {}): void => {
        response.writeHead(status, { "content-type": "text/plain", ...headers });
        response.end("x");
      };
      if (path.startsWith("/held/")) {
        setTimeout(() => plain(200), 40);
        return;
      }
      if (path.startsWith("/hold-long")) {
        setTimeout(() => plain(200), 600);
        return;
      }
      if (path === "/429-then-ok") return nth === 1 ? plain(429, { "retry-after": "1" }) : plain(200);
      if (path === "/503-date-then-ok") {
        // An HTTP-date two seconds ahead (whole seconds, so the wait is between 1 and 2 s).
        const when = new Date(Date.now() + 2_000).toUTCString();
        return nth === 1 ? plain(503, { "retry-after": when }) : plain(200);
      }
      if (path === "/429-long") return plain(429, { "retry-after": "120" });
      if (path === "/429-always") return plain(429, { "retry-after": "0" });
      if (path === "/503-soon") return plain(503, { "retry-after": "soon" });
      if (path === "/429-plain") return plain(429);
      if (path === "/429-one-second") return plain(429, { "retry-after": "1" });
      if (path === "/get-429-then-canonical") {
        if (request.method === "HEAD") {
          response.writeHead(200, { "content-type": "text/html" });
          return response.end();
        }
        const gets = times.length - 1; // HEAD came first
        if (gets === 1) return plain(429, { "retry-after": "0" });
        response.writeHead(200, { "content-type": "text/html" });
        return response.end('<html><head><link rel="canonical" href="/the-canonical"></head>');
      }
      plain(200);
    });
  });
  after(() => site.close());
  beforeEach(() => {
    load.reset();
    arrivals.clear();
  });

  it("never has more than hostConcurrency requests or connections open to one host", async () => {
    const client = createClient(site.options({ hostConcurrency: 3 }));
    try {
      const urls: string[] = [];
      for (let i = 0; i < 24; i++) {
        urls.push(site.url(`/held/${i}`, "a.test"), site.url(`/held/${i}`, "b.test"));
      }
      const outcomes = await all(client.resolveMany(urls, { concurrency: 48 }));
      assert.equal(outcomes.length, 48);
      assert.ok(
        outcomes.every((o) => o.ok),
        JSON.stringify(outcomes.find((o) => !o.ok)),
      );
      for (const host of ["a.test", "b.test"]) {
        // Reached, not just bounded: 24 at once were asked for, so the limit was what held them.
        assert.equal(load.maxInFlight.get(host), 3, `${host} requests in flight`);
        assert.ok((load.maxOpen.get(host) ?? 0) <= 3, `${host}: ${load.maxOpen.get(host)} connections`);
      }
    } finally {
      await client.close();
    }
  });

  it("defaults to 6 per host", async () => {
    const client = createClient(site.options());
    try {
      const urls = Array.from({ length: 20 }, (_, i) => site.url(`/held/d${i}`, "c.test"));
      const outcomes = await all(client.resolveMany(urls, { concurrency: 20 }));
      assert.ok(outcomes.every((o) => o.ok));
      assert.equal(load.maxInFlight.get("c.test"), 6);
      assert.ok((load.maxOpen.get("c.test") ?? 0) <= 6);
    } finally {
      await client.close();
    }
  });

  it("a request whose deadline passes while it waits for a slot leaves without being sent", async () => {
    const patient = createClient(site.options({ hostConcurrency: 1 }));
    const hasty = createClient(site.options({ hostConcurrency: 1, totalTimeoutMs: 150 }));
    try {
      const first = patient.resolve(site.url("/hold-long/1"));
      // Let the first request take the slot.
      while (!arrivals.has("/hold-long/1")) await new Promise((r) => setTimeout(r, 5));
      // Another client has its own slots: it is not held up by this one.
      assert.equal((await hasty.resolve(site.url("/held/other"))).status, 200);
      const queued = patient.resolve(site.url("/hold-long/2"), { signal: AbortSignal.timeout(100) });
      await assert.rejects(queued, (e) => isTimeoutError(e));
      assert.equal((await first).status, 200);
      // The abandoned request was never sent, and the slot it waited for went on to the next one.
      assert.equal(arrivals.has("/hold-long/2"), false);
      assert.equal((await patient.resolve(site.url("/held/after"))).status, 200);
    } finally {
      await patient.close();
      await hasty.close();
    }
  });

  it("a 429 with Retry-After: 1 is retried once, at least a second later", async () => {
    const client = createClient(site.options());
    try {
      const r = await client.resolve(site.url("/429-then-ok"));
      assert.equal(r.status, 200);
      const times = arrivals.get("/429-then-ok") ?? [];
      assert.equal(times.length, 2);
      // libuv measures timers against its cached loop time, which can trail the clock by a few ms.
      const gap = (times[1] as number) - (times[0] as number);
      assert.ok(gap >= 995, `retried after ${gap.toFixed(1)} ms`);
    } finally {
      await client.close();
    }
  });

  it("a 503 with an HTTP-date Retry-After is retried once at that date", async () => {
    const client = createClient(site.options());
    try {
      const r = await client.resolve(site.url("/503-date-then-ok"));
      assert.equal(r.status, 200);
      const times = arrivals.get("/503-date-then-ok") ?? [];
      assert.equal(times.length, 2);
      assert.ok((times[1] as number) - (times[0] as number) >= 900);
    } finally {
      await client.close();
    }
  });

  it("a Retry-After longer than maxRetryAfterMs fails at once with http-status naming it", async () => {
    const client = createClient(site.options());
    try {
      await assert.rejects(client.resolve(site.url("/429-long")), (e) => {
        assert.ok(isFetchError(e) && e.code === "http-status", String(e));
        assert.match(e.message, /HTTP 429/);
        assert.match(e.message, /Retry-After: 120, not retried: over maxRetryAfterMs 5000/);
        return true;
      });
      assert.equal(arrivals.get("/429-long")?.length, 1);
    } finally {
      await client.close();
    }
  });

  it("a Retry-After that fits maxRetryAfterMs but not the deadline is not waited for", async () => {
    const client = createClient(site.options({ totalTimeoutMs: 800 }));
    try {
      await assert.rejects(client.resolve(site.url("/429-one-second")), (e) => {
        assert.ok(isFetchError(e) && e.code === "http-status", String(e));
        assert.match(e.message, /Retry-After: 1, not retried: past the deadline/);
        return true;
      });
      assert.equal(arrivals.get("/429-one-second")?.length, 1);
    } finally {
      await client.close();
    }
  });

  it("retries once only, and a zero maxRetryAfterMs retries only a zero wait", async () => {
    const client = createClient(site.options({ maxRetryAfterMs: 0 }));
    try {
      await assert.rejects(client.resolve(site.url("/429-always")), (e) => {
        assert.ok(isFetchError(e) && e.code === "http-status", String(e));
        assert.match(e.message, /retried once after Retry-After: 0/);
        return true;
      });
      assert.equal(arrivals.get("/429-always")?.length, 2);
      await assert.rejects(client.resolve(site.url("/429-one-second")), /over maxRetryAfterMs 0/);
    } finally {
      await client.close();
    }
  });

  it("an unreadable or missing Retry-After is not retried", async () => {
    const client = createClient(site.options());
    try {
      await assert.rejects(
        client.resolve(site.url("/503-soon")),
        /HTTP 503 .*\(Retry-After: soon, not retried: not a delay or an HTTP date\)/,
      );
      assert.equal(arrivals.get("/503-soon")?.length, 1);
      await assert.rejects(client.resolve(site.url("/429-plain")), (e) => {
        assert.ok(isFetchError(e) && e.code === "http-status");
        assert.doesNotMatch(e.message, /Retry-After/);
        return true;
      });
      assert.equal(arrivals.get("/429-plain")?.length, 1);
    } finally {
      await client.close();
    }
  });

  it("a GET answered 429 is retried as a GET and its head still read", async () => {
    const client = createClient(site.options());
    try {
      const r = await client.resolve(site.url("/get-429-then-canonical"));
      assert.equal(r.url, site.url("/the-canonical"));
      assert.equal(arrivals.get("/get-429-then-canonical")?.length, 3);
    } finally {
      await client.close();
    }
  });

  it("the options are validated", () => {
    assert.throws(() => createClient({ hostConcurrency: 0 }), /option "hostConcurrency" must be an integer/);
    assert.throws(() => createClient({ hostConcurrency: 1.5 }), TypeError);
    assert.throws(() => createClient({ maxRetryAfterMs: -1 }), /option "maxRetryAfterMs"/);
  });
});
