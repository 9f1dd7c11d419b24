// Issue 11, resolver side: a bad batch element, a bad argument, a failing input source or a caller's
// abort never crashes, hangs or loses an input. Every batch reports exactly one Outcome per input it
// took, then ends (or rejects, saying why), against a real local server.
import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { isAbortError, isCanonError, isTimeoutError, isUrlError } from "../../src/errors/guards.js";
import { createClient } from "../../src/resolve/client.js";
import { MAX_DIALLED_ADDRESSES } from "../../src/resolve/guard/destination.js";
import { canonicalize, resolve } from "../../src/resolve/one-shot.js";
import type { Outcome } from "../../src/resolve/types.js";
import { type Site, startSite, text } from "./site.js";

async function collect(batch: AsyncIterable<Outcome>): Promise<{ outcomes: Outcome[]; error: unknown }> {
  const outcomes: Outcome[] = [];
  try {
    for await (const outcome of batch) outcomes.push(outcome);
    return { outcomes, error: undefined };
  } catch (error) {
    return { outcomes, error };
  }
}

function indexes(outcomes: readonly Outcome[]): number[] {
  return outcomes.map((o) => o.index).sort((a, b) => a - b);
}

// `any` is the point: these are the values a JavaScript caller (or a typed one with a cast) hands in.
// biome-ignore lint/suspicious/noExplicitAny: deliberately untyped calls
type Loose = any;

describe("batch and argument hardening", () => {
  let site: Site;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };
  before(async () => {
    site = await startSite((request, response) => {
      const path = request.url ?? "/";
      if (path.startsWith("/slow/")) {
        setTimeout(() => text()(request, response), Number(path.split("/")[2]));
        return;
      }
      if (path.startsWith("/never")) return; // holds the request open until the client gives up
      text()(request, response);
    });
  });
  after(() => site.close());
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(async () => {
    // Give a stray rejection from the batch a turn to surface before checking.
    await new Promise((r) => setTimeout(r, 20));
    process.off("unhandledRejection", onUnhandled);
    assert.deepEqual(unhandled, [], "no unhandled rejection escaped the batch");
  });

  it("a batch with an undefined element yields one Outcome per input and ends", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(site.options());
    try {
      const { outcomes, error } = await collect(client.resolveMany(["ftp://a/", undefined] as Loose));
      assert.equal(error, undefined);
      assert.deepEqual(indexes(outcomes), [0, 1]);
      const bad = outcomes.find((o) => o.index === 1) as Outcome & { ok: false };
      assert.equal(bad.ok, false);
      assert.ok(isUrlError(bad.error) && bad.error.code === "invalid-url");
      assert.match(bad.error.message, /input 1 must be a string, got undefined/);
      assert.ok(bad.error.cause instanceof TypeError);
      assert.equal(bad.input, "");
      const ftp = outcomes.find((o) => o.index === 0) as Outcome & { ok: false };
      assert.equal(ftp.error.code, "unsupported-scheme");
    } finally {
      await client.close();
    }
  });

  it("every kind of non-string element is a failed Outcome naming its index and type", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(site.options());
    const hostile = {
      toString() {
        throw new Error("toString bomb");
      },
    };
    const elements: unknown[] = [null, 5, {}, Symbol("s"), hostile, ["x"], 10n, () => 1, site.url("/ok")];
    try {
      const { outcomes, error } = await collect(client.resolveMany(elements as Loose, { concurrency: 2 }));
      assert.equal(error, undefined);
      assert.deepEqual(
        indexes(outcomes),
        elements.map((_, i) => i),
      );
      const types = ["null", "number", "object", "symbol", "object", "array", "bigint", "function"];
      for (const [i, type] of types.entries()) {
        const o = outcomes.find((x) => x.index === i) as Outcome & { ok: false };
        assert.equal(o.ok, false);
        assert.equal(o.error.code, "invalid-url");
        assert.equal(o.error.message, `canonurl: input ${i} must be a string, got ${type}`);
      }
      const good = outcomes.find((o) => o.index === 8);
      assert.ok(good?.ok, "the string input still resolves");
    } finally {
      await client.close();
    }
  });

  it("resolve and canonicalize reject a non-string URL with a TypeError naming the type", async () => {
    const client = createClient(site.options());
    const before = site.server.requests;
    try {
      for (const [value, type] of [
        [undefined, "undefined"],
        [123, "number"],
        [null, "null"],
        [new URL("http://a.test/"), "object"],
      ] as const) {
        await assert.rejects(
          client.resolve(value as Loose),
          (e) => e instanceof TypeError && e.message === `canonurl: url must be a string, got ${type}`,
        );
        await assert.rejects(client.canonicalize(value as Loose), TypeError);
      }
      await assert.rejects(resolve(undefined as Loose, site.options()), TypeError);
      await assert.rejects(canonicalize(42 as Loose, site.options()), /got number/);
      assert.equal(site.server.requests, before, "nothing was fetched");
    } finally {
      await client.close();
    }
  });

  it("refuses wrong batch arguments at the call, before reading anything", () => {
    const client = createClient(site.options());
    try {
      assert.throws(
        () => client.resolveMany("http://a.test/" as Loose),
        /iterable of URL strings, got one string/,
      );
      for (const value of [null, undefined, 5, {}]) {
        assert.throws(() => client.resolveMany(value as Loose), TypeError);
      }
      for (const concurrency of [0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 10_001, "8"]) {
        assert.throws(
          () => client.resolveMany([], { concurrency } as Loose),
          (e) => e instanceof TypeError && /"concurrency"/.test(e.message),
          String(concurrency),
        );
      }
      assert.throws(
        () => client.resolveMany([], { signal: new AbortController() } as Loose),
        /"signal" must be an AbortSignal, got AbortController/,
      );
      let pulled = false;
      const lazy = {
        *[Symbol.iterator]() {
          pulled = true;
          yield "x";
        },
      };
      assert.throws(() => client.resolveMany(lazy, { concurrency: 0 }), TypeError);
      assert.equal(pulled, false);
    } finally {
      void client.close();
    }
  });

  it("a resolve signal that is not an AbortSignal is a TypeError", async () => {
    const client = createClient(site.options());
    await assert.rejects(
      client.resolve(site.url("/x"), { signal: {} } as Loose),
      /"signal" must be an AbortSignal/,
    );
    await client.close();
  });

  it("a sync iterable that throws midway: every input it gave is reported, then its error", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(site.options());
    const broke = new Error("source broke");
    function* inputs(): Generator<string> {
      yield site.url("/slow/200?a");
      yield site.url("/slow/100?b");
      yield site.url("/fast");
      throw broke;
    }
    try {
      const { outcomes, error } = await collect(client.resolveMany(inputs(), { concurrency: 8 }));
      assert.equal(error, broke, "the source's own error ends the iteration");
      assert.deepEqual(indexes(outcomes), [0, 1, 2]);
      assert.ok(
        outcomes.every((o) => o.ok),
        "the inputs already started finish normally",
      );
    } finally {
      await client.close();
    }
  });

  it("an async iterable that rejects: every input it gave is reported, then its error", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(site.options());
    const broke = new Error("stream reset");
    async function* inputs(): AsyncGenerator<unknown> {
      yield site.url("/slow/150?c");
      yield 7;
      await new Promise((r) => setTimeout(r, 10));
      throw broke;
    }
    try {
      const { outcomes, error } = await collect(client.resolveMany(inputs() as Loose, { concurrency: 1 }));
      assert.equal(error, broke);
      assert.deepEqual(indexes(outcomes), [0, 1]);
      assert.ok(outcomes[0]?.ok);
      assert.equal(outcomes[1]?.ok, false);
    } finally {
      await client.close();
    }
  });

  it("a throwing [Symbol.iterator] or next() returning null ends the batch with that error", async () => {
    const client = createClient(site.options());
    try {
      const throwsAtOnce = {
        [Symbol.iterator](): Iterator<string> {
          throw new Error("no iterator");
        },
      };
      const first = await collect(client.resolveMany(throwsAtOnce));
      assert.deepEqual(first.outcomes, []);
      assert.match(String(first.error), /no iterator/);
      const nullStep = {
        [Symbol.iterator]: () => ({ next: () => null }),
      };
      const second = await collect(client.resolveMany(nullStep as Loose));
      assert.deepEqual(second.outcomes, []);
      assert.ok(second.error instanceof TypeError);
    } finally {
      await client.close();
    }
  });

  it("a caller's abort: every input taken is reported (in flight as aborted), then AbortError", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(site.options());
    const controller = new AbortController();
    const inputs = [site.url("/fast?0"), site.url("/never?1"), site.url("/never?2"), site.url("/never?3")];
    const outcomes: Outcome[] = [];
    let error: unknown;
    try {
      for await (const outcome of client.resolveMany(inputs, { concurrency: 3, signal: controller.signal })) {
        outcomes.push(outcome);
        if (outcome.index === 0) setTimeout(() => controller.abort(new Error("user stop")), 50);
      }
    } catch (caught) {
      error = caught;
    } finally {
      await client.close();
    }
    assert.ok(isAbortError(error) && !isTimeoutError(error), String(error));
    const taken = outcomes.length;
    assert.deepEqual(
      indexes(outcomes),
      Array.from({ length: taken }, (_, i) => i),
    );
    assert.match((error as Error).message, new RegExp(`after taking ${taken} inputs`));
    assert.ok(taken === 3 || taken === 4, `${taken}`);
    for (const o of outcomes.filter((x) => x.index > 0)) {
      assert.ok(!o.ok && o.error.code === "aborted", JSON.stringify(o));
      assert.equal(((o as { error: Error }).error.cause as Error).message, "user stop");
    }
  });

  it("a signal already aborted at the call: no input is read, no request made", async () => {
    const client = createClient(site.options());
    const before = site.server.requests;
    let pulled = 0;
    function* inputs(): Generator<string> {
      pulled++;
      yield site.url("/fast");
    }
    const signal = AbortSignal.abort();
    try {
      const { outcomes, error } = await collect(client.resolveMany(inputs(), { signal }));
      assert.deepEqual(outcomes, []);
      assert.ok(isAbortError(error));
      assert.equal(pulled, 0);
      await assert.rejects(client.resolve(site.url("/fast"), { signal }), (e) => isAbortError(e));
      assert.equal(site.server.requests, before);
    } finally {
      await client.close();
    }
  });

  it("the total timeout stays `timeout`, distinct from the caller's abort", { timeout: 10_000 }, async () => {
    const client = createClient(site.options({ totalTimeoutMs: 100 }));
    try {
      await assert.rejects(
        client.resolve(site.url("/never?t")),
        (e) => isTimeoutError(e) && e.code === "timeout",
      );
    } finally {
      await client.close();
    }
  });

  it("stopping the iteration early closes the source and starts nothing more", {
    timeout: 10_000,
  }, async () => {
    const client = createClient(site.options());
    let returned = false;
    let pulled = 0;
    const inputs: Iterable<string> = {
      [Symbol.iterator]: () => ({
        next: () => {
          pulled++;
          return { done: false, value: site.url(`/slow/30?p${pulled}`) };
        },
        return: () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    try {
      for await (const outcome of client.resolveMany(inputs, { concurrency: 2 })) {
        assert.ok(isCanonError(outcome.ok ? undefined : outcome.error) || outcome.ok);
        break;
      }
      const pulledAtStop = pulled;
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(pulled, pulledAtStop, "nothing pulled after the stop");
      assert.ok(returned, "return() told the source");
    } finally {
      await client.close();
    }
  });

  it("a logger that throws does not fail the resolution it logs", async () => {
    const client = createClient(
      site.options({
        logger: {
          debug() {
            throw new Error("logger broke");
          },
        },
      }),
    );
    try {
      const r = await client.resolve(site.url("/logged"));
      assert.equal(r.status, 200);
    } finally {
      await client.close();
    }
  });

  it("a resolver answering 60,000 distinct addresses: all checked, 16 dialled, no hang", {
    timeout: 10_000,
  }, async () => {
    // Node's socket layer dedupes a lookup's list in quadratic time, so 60,000 addresses reaching it
    // would hold the event loop for many seconds; the 10 s limit catches that.
    const answers = ["127.0.0.1"];
    for (let i = 2; answers.length < 60_000; i++)
      answers.push(`127.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    const client = createClient(site.options({ allowedNetworks: ["127.0.0.0/8"] }, { "many.test": answers }));
    try {
      const r = await client.resolve(`http://many.test:${site.server.port}/many`);
      assert.equal(r.status, 200);
    } finally {
      await client.close();
    }
    const seen: (readonly string[])[] = [];
    const recording = createClient(
      site.options(
        {
          allowedNetworks: ["127.0.0.0/8"],
          transport: {
            async request(request) {
              seen.push(request.addresses);
              return { status: 204, headers: {}, body: (async function* () {})(), async dispose() {} };
            },
          },
        },
        // The duplicate of the first address is dropped, and the last answer, outside the allowed
        // network, still refuses the name although it would never be dialled.
        { "many.test": ["127.0.0.1", ...answers, "10.0.0.1"], "fine.test": answers },
      ),
    );
    try {
      await assert.rejects(recording.resolve(`http://many.test:${site.server.port}/`), (e) => {
        assert.ok(isCanonError(e) && e.code === "blocked-address", String(e));
        return true;
      });
      await recording.resolve(`http://fine.test:${site.server.port}/`);
      assert.ok(seen.length > 0);
      for (const addresses of seen) assert.deepEqual(addresses, answers.slice(0, MAX_DIALLED_ADDRESSES));
    } finally {
      await recording.close();
    }
  });
});
