import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isTimeoutError } from "../../src/errors/guards.js";
import { abortableIterable, createDeadline, raceSignal } from "../../src/resolve/deadline.js";

describe("deadline", () => {
  it("aborts after the total timeout and names it", async () => {
    const deadline = createDeadline(30);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(deadline.signal.aborted, true);
    const error = deadline.toError("http://a.test/");
    assert.ok(isTimeoutError(error));
    assert.match(error.message, /limit 30 ms.*http:\/\/a\.test\//);
    deadline.dispose();
  });

  it("follows the caller's signal and says so", () => {
    const controller = new AbortController();
    const deadline = createDeadline(10_000, controller.signal);
    controller.abort(new Error("user"));
    assert.equal(deadline.signal.aborted, true);
    const error = deadline.toError("http://a.test/");
    // A caller's abort is not a deadline: its own code, so the two can be told apart.
    assert.equal(error.code, "aborted");
    assert.equal(error.name, "AbortError");
    assert.match(error.message, /aborted by the caller/);
    assert.equal((error.cause as Error).message, "user");
    deadline.dispose();
  });

  it("a caller's signal that aborts with a TimeoutError reads as a timeout, not an abort", () => {
    const controller = new AbortController();
    const deadline = createDeadline(10_000, controller.signal);
    controller.abort(new DOMException("the request's deadline of 50 ms passed", "TimeoutError"));
    const error = deadline.toError("http://a.test/");
    assert.equal(error.code, "timeout");
    assert.ok(isTimeoutError(error));
    assert.match(error.message, /caller's deadline .*50 ms.*http:\/\/a\.test\//);
    deadline.dispose();
  });

  it("dispose clears the timer", async () => {
    const deadline = createDeadline(20);
    deadline.dispose();
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(deadline.signal.aborted, false);
  });

  it("raceSignal rejects at the abort even if the promise never settles", async () => {
    const controller = new AbortController();
    const pending = raceSignal(new Promise(() => {}), controller.signal);
    controller.abort(new Error("stop"));
    await assert.rejects(pending, /stop/);
    await assert.rejects(raceSignal(Promise.resolve(1), controller.signal), /stop/);
    assert.equal(await raceSignal(Promise.resolve(2), new AbortController().signal), 2);
  });

  it("race settles with the promise, and rejects at the deadline's abort when it never settles", async () => {
    const deadline = createDeadline(40);
    // The deadline's timer is unref'd (it must not hold a process open); this one keeps the test alive.
    const keepAlive = setTimeout(() => {}, 1000);
    try {
      assert.equal(await deadline.race(Promise.resolve(7)), 7);
      await assert.rejects(deadline.race(Promise.reject(new Error("own"))), /own/);
      const started = performance.now();
      await assert.rejects(deadline.race(new Promise(() => {})), { name: "TimeoutError" });
      assert.ok(performance.now() - started >= 30, "rejected by the timer, not before");
      // Once aborted, a new race rejects at once.
      await assert.rejects(deadline.race(Promise.resolve(1)), { name: "TimeoutError" });
    } finally {
      clearTimeout(keepAlive);
      deadline.dispose();
    }
  });

  it("race follows the caller's abort, and a disposed deadline stops following", async () => {
    const caller = new AbortController();
    const deadline = createDeadline(10_000, caller.signal);
    const pending = deadline.race(new Promise(() => {}));
    caller.abort(new Error("user stop"));
    await assert.rejects(pending, /user stop/);
    deadline.dispose();

    const later = new AbortController();
    const disposed = createDeadline(10_000, later.signal);
    disposed.dispose();
    later.abort(new Error("after dispose"));
    assert.equal(disposed.signal.aborted, false, "a finished operation ignores a later abort");
  });

  it("abortableIterable stops a stalled source and closes it", async () => {
    let closed = false;
    const source: AsyncIterable<number> = {
      [Symbol.asyncIterator]() {
        let n = 0;
        return {
          next: () => (n++ === 0 ? Promise.resolve({ value: 1, done: false }) : new Promise(() => {})),
          return: async () => {
            closed = true;
            return { value: undefined, done: true };
          },
        };
      },
    };
    const controller = new AbortController();
    const seen: number[] = [];
    setTimeout(() => controller.abort(new Error("deadline")), 20);
    await assert.rejects(
      (async () => {
        for await (const value of abortableIterable(source, controller.signal)) seen.push(value);
      })(),
      /deadline/,
    );
    assert.deepEqual(seen, [1]);
    assert.equal(closed, true);
  });
});
