import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAbortError } from "../../src/errors/guards.js";
import { toCanonError } from "../../src/resolve/http/to-canon-error.js";
import { resolveMany } from "../../src/resolve/resolve-many.js";
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
});
