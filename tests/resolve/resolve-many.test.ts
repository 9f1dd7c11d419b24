import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAbortError } from "../../src/errors/guards.js";
import { toCanonError } from "../../src/resolve/http/to-canon-error.js";
import { joinedBound, resolveMany } from "../../src/resolve/resolve-many.js";
import type { Outcome, Resolution } from "../../src/resolve/types.js";

describe("resolveMany (unit)", () => {
  it("a resolution that ignores its signal cannot hold the batch open after an abort", {
    timeout: 5_000,
  }, async () => {
    const controller = new AbortController();
    const work = {
      // Never settles and never looks at the signal: the worst a custom resolveOne can do.
      resolveOne: (): Promise<Resolution> => new Promise<Resolution>(() => {}),
      toError: toCanonError,
    };
    const outcomes: Outcome[] = [];
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(
      (async () => {
        for await (const o of resolveMany(["a", "b"], work, {
          signal: controller.signal,
          defaultConcurrency: 4,
        }))
          outcomes.push(o);
      })(),
      isAbortError,
    );
    assert.deepEqual(outcomes.map((o) => [o.index, o.ok ? "ok" : o.error.code]).sort(), [
      [0, "aborted"],
      [1, "aborted"],
    ]);
  });

  it("a mapping or resolveOne that throws synchronously still yields one CanonError Outcome", async () => {
    const work = {
      resolveOne: (input: string): Promise<Resolution> => {
        if (input === "sync") throw new Error("thrown, not rejected");
        return Promise.reject(new Error("rejected"));
      },
      toError: (error: unknown, input: string) => {
        if (input === "bad-map") throw new Error("mapping broke");
        return toCanonError(error, input);
      },
    };
    const outcomes: Outcome[] = [];
    for await (const o of resolveMany(["sync", "bad-map", "plain"], work, { defaultConcurrency: 2 }))
      outcomes.push(o);
    assert.deepEqual(outcomes.map((o) => o.index).sort(), [0, 1, 2]);
    for (const o of outcomes) {
      assert.equal(o.ok, false);
      assert.equal(typeof (o as { error: { code: unknown } }).error.code, "string");
    }
  });

  // A stand-in for the client with a cache: one resolution per distinct input, held until released;
  // a duplicate that arrives while its input runs joins it (joins() says so, as the client does).
  function sharedWork() {
    const running = new Map<string, { promise: Promise<Resolution>; release: () => void }>();
    const started: string[] = [];
    let pending = 0;
    let maxPending = 0;
    const resolution = (input: string): Resolution => ({
      url: input,
      original: input,
      source: "initial",
      chain: [],
      status: 200,
      headers: {},
      ruleApplied: null,
      paramsStripped: [],
      verified: true,
      durationMs: 0,
      cached: false,
      stale: false,
    });
    return {
      started,
      running,
      get maxPending() {
        return maxPending;
      },
      work: {
        toError: toCanonError,
        joins: (input: string) => running.has(input),
        resolveOne(input: string): Promise<Resolution> {
          let run = running.get(input);
          if (run === undefined) {
            started.push(input);
            let release = () => {};
            const promise = new Promise<Resolution>((resolve) => {
              release = () => {
                running.delete(input);
                resolve(resolution(input));
              };
            });
            run = { promise, release };
            running.set(input, run);
          }
          pending++;
          maxPending = Math.max(maxPending, pending);
          return run.promise.then((r) => {
            pending--;
            return r;
          });
        },
      },
    };
  }

  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };

  it("duplicates of a running input wait beside the slots: N distinct slow inputs still run in parallel", async () => {
    const shared = sharedWork();
    // 40 copies of "a" before three other inputs: if each copy held one of the 4 slots, "b", "c"
    // and "d" could not start until "a" finished.
    const inputs = [...Array.from({ length: 40 }, () => "a"), "b", "c", "d"];
    const outcomes: Outcome[] = [];
    const done = (async () => {
      for await (const o of resolveMany(inputs, shared.work, { concurrency: 4, defaultConcurrency: 4 }))
        outcomes.push(o);
    })();
    await turns(5);
    assert.deepEqual(shared.started, ["a", "b", "c", "d"], "all four distinct inputs started, none finished");
    assert.equal(outcomes.length, 0);
    for (const name of ["a", "b", "c", "d"]) shared.running.get(name)?.release();
    await done;
    assert.equal(outcomes.length, inputs.length);
    assert.deepEqual(
      outcomes.map((o) => o.index).sort((x, y) => x - y),
      inputs.map((_, i) => i),
      "one outcome per input, each with its index",
    );
    for (const o of outcomes) assert.ok(o.ok && o.result.url === inputs[o.index]);
  });

  it("without a joins hint every input takes a slot (duplicates queue as before)", async () => {
    const shared = sharedWork();
    const { joins: _unused, ...plain } = shared.work;
    const inputs = [...Array.from({ length: 40 }, () => "a"), "b"];
    const done = (async () => {
      for await (const _ of resolveMany(inputs, plain, { concurrency: 4, defaultConcurrency: 4 })) {
        // drain
      }
    })();
    await turns(5);
    assert.deepEqual(shared.started, ["a"], "the copies of a fill every slot, b waits");
    const releaser = setInterval(() => {
      for (const run of shared.running.values()) run.release();
    }, 1);
    await done;
    clearInterval(releaser);
    assert.equal(shared.started.filter((name) => name === "b").length, 1);
  });

  it("duplicates waiting on one slow input are bounded: 100,000 copies never hold more than concurrency + joinedBound", {
    timeout: 30_000,
  }, async () => {
    const shared = sharedWork();
    const concurrency = 2;
    const total = 100_000;
    let pulled = 0;
    function* copies() {
      for (let i = 0; i < total; i++) {
        pulled++;
        yield "a";
      }
    }
    let yielded = 0;
    const done = (async () => {
      for await (const o of resolveMany(copies(), shared.work, { concurrency, defaultConcurrency: 1 })) {
        assert.ok(o.ok);
        yielded++;
      }
    })();
    await turns(20);
    const bound = concurrency + joinedBound(concurrency);
    assert.ok(bound < 100, `the bound is small: ${bound}`);
    assert.equal(shared.maxPending, bound, "waiting copies fill the bound and stop there");
    // The pump has pulled what waits, plus at most the one it holds for a slot.
    assert.ok(pulled <= bound + 1, `${pulled} inputs pulled while "a" runs`);
    // Later copies find "a" done and start it again (this stand-in has no cache): release each run.
    const releaser = setInterval(() => {
      for (const run of shared.running.values()) run.release();
    }, 1);
    await done;
    clearInterval(releaser);
    assert.equal(yielded, total);
    assert.ok(shared.maxPending <= bound, `never more than ${bound} at once: ${shared.maxPending}`);
  });
});
