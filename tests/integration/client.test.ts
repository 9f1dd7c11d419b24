import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isAbortError, isCanonError, isTimeoutError } from "../../src/errors/guards.js";
import { createClient } from "../../src/resolve/client.js";
import { canonicalize } from "../../src/resolve/one-shot.js";
import type { Hop, Outcome, Trace } from "../../src/resolve/types.js";
import type { DomainRule } from "../../src/rules/domain-rule.js";
import { redirect, routes, type Site, startSite, text } from "./site.js";

describe("createClient", () => {
  let site: Site;
  // In-flight requests per group (`/slow/<ms>/<group>`), so one test's stragglers never count in another's.
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  before(async () => {
    site = await startSite((request, response) => {
      const path = request.url ?? "/";
      if (path.startsWith("/slow/")) {
        const group = (path.split("/")[3] ?? "").split("?")[0] ?? "";
        const now = (inFlight.get(group) ?? 0) + 1;
        inFlight.set(group, now);
        maxInFlight.set(group, Math.max(maxInFlight.get(group) ?? 0, now));
        const ms = Number(path.split("/")[2] ?? "30");
        setTimeout(() => {
          inFlight.set(group, (inFlight.get(group) ?? 1) - 1);
          text()(request, response);
        }, ms);
        return;
      }
      routes({
        "/start?utm_medium=x": redirect("/article/?utm_source=y&id=7"),
        "/article/?utm_source=y&id=7": text(),
        "/plain": text(),
        "/missing": (_q, r) => {
          r.writeHead(404);
          r.end();
        },
      })(request, response);
    });
  });
  after(() => site.close());

  it("exposes its options frozen and refuses bad ones at construction", () => {
    const client = createClient(site.options({ maxHops: 4 }));
    assert.equal(client.options.maxHops, 4);
    assert.ok(Object.isFrozen(client.options) && Object.isFrozen(client));
    assert.throws(
      () => createClient({ maxHops: -1 }),
      (e) => e instanceof TypeError && /maxHops/.test(e.message),
    );
    return client.close();
  });

  it("canonicalize returns the final URL through the chosen preset", async () => {
    assert.equal(
      await canonicalize(site.url("/start?utm_medium=x"), site.options()),
      site.url("/article?id=7"),
    );
    assert.equal(
      await canonicalize(site.url("/start?utm_medium=x"), site.options({ preset: "rfc3986" })),
      site.url("/article/?utm_source=y&id=7"),
    );
  });

  it("reports each hop, the rule and the trace to hooks, and logs only to a given logger", async () => {
    const hops: Hop[] = [];
    const rules: Array<[string, string, string]> = [];
    let trace: Trace | undefined;
    const messages: string[] = [];
    const rule: DomainRule = {
      name: "article-v1",
      // Claims its own output too: a rule that does not is an unwrapper and restarts the pipeline.
      match: (url) => url.hostname === "a.test",
      apply: (url) => {
        url.pathname = url.pathname.replace(/^\/article$/, "/a");
        return url;
      },
    };
    const client = createClient(
      site.options({
        rules: [rule],
        logger: { debug: (message) => messages.push(message) },
        hooks: {
          onHop: (hop) => hops.push(hop),
          onRuleApplied: (name, before, after) => rules.push([name, before, after]),
          onComplete: (t) => (trace = t),
        },
      }),
    );
    const result = await client.resolve(site.url("/start?utm_medium=x"));
    await client.close();
    assert.equal(result.url, site.url("/a?id=7"));
    assert.equal(result.ruleApplied, "article-v1");
    assert.deepEqual(result.paramsStripped, ["utm_source"]);
    assert.deepEqual(hops, result.chain);
    assert.deepEqual(rules, [["article-v1", site.url("/article?id=7"), site.url("/a?id=7")]]);
    assert.ok(trace);
    assert.equal(trace.input, site.url("/start?utm_medium=x"));
    assert.equal(trace.afterRedirects, site.url("/article/?utm_source=y&id=7"));
    assert.equal(trace.afterGeneric, site.url("/article?id=7"));
    assert.equal(trace.afterDomain, site.url("/a?id=7"));
    assert.equal(trace.final, result.url);
    assert.deepEqual(trace.chain, result.chain);
    assert.ok(trace.durationMs > 0 && result.durationMs >= trace.durationMs);
    assert.ok(messages.includes("request") && messages.includes("response"));
  });

  it("survives a hook that throws", async () => {
    const client = createClient(
      site.options({
        hooks: {
          onHop: () => {
            throw new Error("observer bug");
          },
        },
      }),
    );
    assert.equal(await client.canonicalize(site.url("/plain")), site.url("/plain"));
    await client.close();
  });

  it("reuses keep-alive connections across resolutions", async () => {
    const client = createClient(site.options());
    const before = site.server.connections;
    for (let i = 0; i < 10; i++) await client.resolve(site.url("/start?utm_medium=x"));
    // 20 requests; a second socket may open while the first is still being released.
    assert.ok(site.server.connections - before <= 2, `${site.server.connections - before} connections`);
    await client.close();
  });

  it("aborts a resolution through its signal with an AbortError, not a timeout", async () => {
    const client = createClient(site.options());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      client.resolve(site.url("/slow/2000"), { signal: controller.signal }),
      (e) =>
        isAbortError(e) &&
        e.code === "aborted" &&
        !isTimeoutError(e) &&
        /aborted by the caller/.test(e.message),
    );
    await client.close();
  });

  it("refuses work after close", async () => {
    const client = createClient(site.options());
    await client.close();
    await assert.rejects(client.resolve(site.url("/plain")), isCanonError);
  });

  describe("resolveMany", () => {
    it("keeps at most `concurrency` in flight and yields one outcome per input, failures as values", async () => {
      const client = createClient(site.options());
      const inputs = Array.from({ length: 12 }, (_, i) => site.url(`/slow/100/bounded?${i}`));
      inputs.push("ftp://a.test/", site.url("/missing"));
      const outcomes: Outcome[] = [];
      for await (const outcome of client.resolveMany(inputs, { concurrency: 4 })) outcomes.push(outcome);
      await client.close();
      assert.equal(maxInFlight.get("bounded"), 4);
      assert.equal(outcomes.length, inputs.length);
      assert.deepEqual(
        outcomes.map((o) => o.index).sort((a, b) => a - b),
        inputs.map((_, i) => i),
      );
      for (const outcome of outcomes) assert.equal(outcome.input, inputs[outcome.index]);
      const failed = outcomes.filter((o) => !o.ok);
      assert.deepEqual(failed.map((o) => (o.ok ? "" : o.error.code)).sort(), [
        "http-status",
        "unsupported-scheme",
      ]);
    });

    it("yields outcomes as they complete, each carrying its index", async () => {
      const client = createClient(site.options());
      const order: number[] = [];
      const inputs = [site.url("/slow/300"), site.url("/slow/10"), site.url("/slow/20")];
      for await (const outcome of client.resolveMany(inputs, { concurrency: 3 })) order.push(outcome.index);
      await client.close();
      assert.equal(order[order.length - 1], 0);
      assert.equal(order.length, 3);
    });

    it("pulls async inputs lazily and stops pulling when the consumer stops", async () => {
      const client = createClient(site.options());
      let pulled = 0;
      async function* inputs(): AsyncGenerator<string> {
        for (let i = 0; i < 1000; i++) {
          pulled++;
          yield site.url(`/slow/5?${i}`);
        }
      }
      let taken = 0;
      for await (const _ of client.resolveMany(inputs(), { concurrency: 2 })) {
        if (++taken === 3) break;
      }
      await client.close();
      assert.ok(pulled <= 6, `pulled ${pulled}`);
    });

    it("reports every input it took, then rejects with an AbortError, when the caller aborts", async () => {
      const client = createClient(site.options());
      const controller = new AbortController();
      const inputs = Array.from({ length: 10 }, (_, i) => site.url(`/slow/${i === 0 ? 10 : 2000}?${i}`));
      const seen: Outcome[] = [];
      const started = performance.now();
      await assert.rejects(
        (async () => {
          for await (const outcome of client.resolveMany(inputs, {
            concurrency: 3,
            signal: controller.signal,
          })) {
            seen.push(outcome);
            controller.abort();
          }
        })(),
        isAbortError,
      );
      await client.close();
      // The first finished; every input taken after it is reported as aborted, none is lost.
      assert.ok(seen[0]?.ok, "the first outcome is a success");
      assert.deepEqual(
        seen.map((o) => o.index).sort((a, b) => a - b),
        seen.map((_, i) => i),
      );
      assert.ok(seen.length >= 3 && seen.length <= 4, `${seen.length} outcomes`);
      for (const o of seen.slice(1)) assert.ok(!o.ok && o.error.code === "aborted", JSON.stringify(o));
      assert.ok(performance.now() - started < 1500);
    });

    it("refuses a bad concurrency", () => {
      const client = createClient(site.options());
      assert.throws(() => client.resolveMany([], { concurrency: 0 }), /concurrency/);
      return client.close();
    });
  });
});
