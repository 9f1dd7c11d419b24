import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { retryAfterMs } from "../../../src/resolve/http/retry-after.js";

const now = Date.parse("1994-11-06T08:49:00Z");

describe("retryAfterMs (RFC 9110 §10.2.3)", () => {
  it("reads delay-seconds", () => {
    assert.equal(retryAfterMs("0", now), 0);
    assert.equal(retryAfterMs("120", now), 120_000);
    assert.equal(retryAfterMs(" 7 ", now), 7_000);
    assert.equal(retryAfterMs(["3"], now), 3_000);
    // Huge stays huge, for the caller's bound to refuse.
    assert.ok((retryAfterMs("9".repeat(400), now) as number) > 1e300);
  });

  it("reads the three HTTP-date forms as the wait from now", () => {
    assert.equal(retryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", now), 37_000);
    assert.equal(retryAfterMs("Sunday, 06-Nov-94 08:49:37 GMT", now), 37_000);
    assert.equal(retryAfterMs("Sun Nov  6 08:49:37 1994", now), 37_000);
    assert.equal(retryAfterMs("Sun Nov 16 08:49:37 1994", now), 10 * 86_400_000 + 37_000);
  });

  it("a date in the past is no wait", () => {
    assert.equal(retryAfterMs("Sat, 05 Nov 1994 08:49:37 GMT", now), 0);
  });

  it("anything else is no answer: absent, repeated, signed, fractional, loose dates, rolled-over dates", () => {
    for (const value of [
      "",
      "soon",
      "-1",
      "+5",
      "1.5",
      "1e3",
      "0x10",
      "Sun, 6 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37 UTC",
      "1994-11-06T08:49:37Z",
      "Sun, 31 Feb 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 25:49:37 GMT",
      "Sun, 06 Nov 1994 08:61:37 GMT",
    ]) {
      assert.equal(retryAfterMs(value, now), null, JSON.stringify(value));
    }
    assert.equal(retryAfterMs(undefined, now), null);
    assert.equal(retryAfterMs(["1", "2"], now), null);
  });
});
