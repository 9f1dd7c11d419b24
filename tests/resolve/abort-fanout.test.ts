import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { describe, it } from "node:test";
import { followAbort, ownFanout } from "../../src/resolve/abort-fanout.js";

describe("followAbort", () => {
  it("calls every follower once, through one listener on the signal", () => {
    const controller = new AbortController();
    const calls: number[] = [];
    for (let i = 0; i < 3; i++) followAbort(controller.signal, () => calls.push(i));
    assert.equal(getEventListeners(controller.signal, "abort").length, 1);
    controller.abort(new Error("stop"));
    controller.abort(new Error("again"));
    assert.deepEqual(calls, [0, 1, 2]);
  });

  it("an unsubscribed follower is not called", () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const stopA = followAbort(controller.signal, () => calls.push("a"));
    followAbort(controller.signal, () => calls.push("b"));
    stopA();
    stopA();
    controller.abort();
    assert.deepEqual(calls, ["b"]);
  });

  it("an already aborted signal calls the follower at once", () => {
    const controller = new AbortController();
    controller.abort();
    let called = 0;
    const stop = followAbort(controller.signal, () => called++);
    assert.equal(called, 1);
    stop();
    assert.equal(getEventListeners(controller.signal, "abort").length, 0);
  });

  it("a batch of followers on one signal raises no listener-leak warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      const stops = Array.from({ length: 200 }, () => followAbort(controller.signal, () => {}));
      for (const stop of stops) stop();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.map((w) => w.name),
        [],
      );
      assert.equal(getEventListeners(controller.signal, "abort").length, 1);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("ownFanout", () => {
  it("followers of an owned signal add no listener and run when the owner fans out", () => {
    const controller = new AbortController();
    const fanOut = ownFanout(controller.signal);
    const calls: string[] = [];
    followAbort(controller.signal, () => calls.push("a"));
    const stopB = followAbort(controller.signal, () => calls.push("b"));
    followAbort(controller.signal, () => calls.push("c"));
    stopB();
    assert.equal(getEventListeners(controller.signal, "abort").length, 0);
    controller.abort(new Error("deadline"));
    // Aborting alone reaches no follower: the owner's fan-out does.
    assert.equal(calls.length, 0);
    fanOut();
    fanOut();
    assert.deepEqual(calls, ["a", "c"]);
    // After the abort a late follower runs at once, as with any aborted signal.
    followAbort(controller.signal, () => calls.push("late"));
    assert.deepEqual(calls, ["a", "c", "late"]);
  });
});
