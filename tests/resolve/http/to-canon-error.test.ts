import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { toCanonError } from "../../../src/resolve/http/to-canon-error.js";

describe("toCanonError (hardening)", () => {
  it("toCanonError never throws, whatever it is handed", () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const hostile = [
      undefined,
      null,
      Symbol("s"),
      revoked.proxy,
      {
        get message(): string {
          throw new Error("getter");
        },
        get code(): string {
          throw new Error("getter");
        },
      },
      Object.create(null),
    ];
    for (const error of hostile) {
      for (const url of [undefined, 5, revoked.proxy, "http://a.test/"]) {
        // biome-ignore lint/suspicious/noExplicitAny: deliberately untyped, as a JavaScript caller
        const mapped = toCanonError(error, url as any);
        assert.equal(typeof mapped.code, "string");
      }
    }
  });

  it("a response head over undici's limit is response-too-large, not a network failure", () => {
    const overflow = Object.assign(new Error("Headers Overflow Error"), { code: "UND_ERR_HEADERS_OVERFLOW" });
    const mapped = toCanonError(new Error("wrapped", { cause: overflow }), "http://a.test/");
    assert.equal(mapped.code, "response-too-large");
    assert.equal(mapped.name, "ResponseTooLargeError");
  });
});
