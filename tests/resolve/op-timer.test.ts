import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createOpTimer } from "../../src/resolve/op-timer.js";

describe("createOpTimer", () => {
  it("an operation that settles in time keeps its value; late() is never called", async () => {
    const timer = createOpTimer(50);
    let lateCalls = 0;
    const value = await timer.bound(Promise.resolve(7), () => {
      lateCalls++;
      return -1;
    });
    assert.equal(value, 7);
    await assert.rejects(
      timer.bound(Promise.reject(new Error("store down")), () => -1),
      /store down/,
    );
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(lateCalls, 0);
    assert.equal(timer.size, 0);
  });

  it("operations that hang each end with late() no sooner than their own bound, on one timer", async () => {
    const timer = createOpTimer(300);
    // The timer is unref'd (a hung cache operation alone must not keep a process alive): this one
    // keeps the test's loop running meanwhile.
    const alive = setInterval(() => {}, 1_000);
    const hung = new Promise<number>(() => {});
    const starts: number[] = [];
    const ends: Promise<number>[] = [];
    // Started about 20 ms apart, with a quick one between: each must wait its full 300 ms.
    for (let i = 0; i < 3; i++) {
      starts.push(performance.now());
      const start = starts[i] as number;
      ends.push(timer.bound(hung, () => performance.now() - start));
      if (i === 1) assert.equal(await timer.bound(Promise.resolve(1), () => 0), 1);
      await new Promise((r) => setTimeout(r, 20));
    }
    const waited = await Promise.all(ends);
    clearInterval(alive);
    for (const ms of waited) assert.ok(ms >= 299 && ms < 5_000, `waited ${ms} ms`);
    assert.equal(timer.size, 0);
  });

  it("a late() that throws rejects that operation only", async () => {
    const timer = createOpTimer(10);
    const alive = setInterval(() => {}, 1_000);
    await assert.rejects(
      timer.bound(new Promise(() => {}), () => {
        throw new Error("fallback broke");
      }),
      /fallback broke/,
    );
    clearInterval(alive);
    assert.equal(await timer.bound(Promise.resolve("ok"), () => "late"), "ok");
  });
});
