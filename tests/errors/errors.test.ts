import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runInNewContext } from "node:vm";
import {
  AbortError,
  CanonError,
  FetchError,
  isAbortError,
  isCanonError,
  isFetchError,
  isRedirectError,
  isResponseTooLargeError,
  isRuleError,
  isSecurityError,
  isTimeoutError,
  isUrlError,
  RedirectError,
  ResponseTooLargeError,
  RuleError,
  SecurityError,
  TimeoutError,
  UrlError,
} from "../../src/index.js";

const cases = [
  [new UrlError("invalid-url", "m"), "UrlError", isUrlError],
  [new SecurityError("blocked-address", "m"), "SecurityError", isSecurityError],
  [new RedirectError("redirect-loop", "m"), "RedirectError", isRedirectError],
  [new TimeoutError("timeout", "m"), "TimeoutError", isTimeoutError],
  [new AbortError("aborted", "m"), "AbortError", isAbortError],
  [new ResponseTooLargeError("response-too-large", "m"), "ResponseTooLargeError", isResponseTooLargeError],
  [new FetchError("http-status", "m", { status: 404 }), "FetchError", isFetchError],
  [new RuleError("invalid-rule", "m"), "RuleError", isRuleError],
] as const;

const guards = cases.map((c) => c[2]);

describe("error hierarchy", () => {
  for (const [error, name, guard] of cases) {
    it(`${name} is a CanonError with a fixed name and only its own guard matches`, () => {
      assert.ok(error instanceof CanonError);
      assert.ok(error instanceof Error);
      assert.equal(error.name, name);
      assert.ok(isCanonError(error));
      for (const other of guards) assert.equal(other(error), other === guard, `${other.name} on ${name}`);
    });
  }

  it("keeps cause, url and status", () => {
    const cause = new Error("socket hang up");
    const error = new FetchError("http-status", "HTTP 404", { cause, url: "http://a.test/", status: 404 });
    assert.equal(error.cause, cause);
    assert.equal(error.url, "http://a.test/");
    assert.equal(error.status, 404);
    assert.deepEqual(JSON.parse(JSON.stringify(error)), { code: "http-status", message: "HTTP 404" });
  });

  it("RuleError freezes its problem list", () => {
    const error = new RuleError("invalid-rule", "bad", {
      problems: [{ path: "[0].name", message: "required" }],
    });
    assert.deepEqual(error.problems, [{ path: "[0].name", message: "required" }]);
    assert.ok(Object.isFrozen(error.problems));
  });

  it("guards work across realms because they check the code", () => {
    const foreign = runInNewContext('Object.assign(new Error("x"), { code: "timeout" })');
    assert.equal(foreign instanceof Error, false, "a foreign realm's Error is not ours");
    assert.ok(isTimeoutError(foreign));
    assert.ok(isCanonError(foreign));
    assert.ok(!isUrlError(foreign));
    assert.ok(!isCanonError(Object.assign(new Error("x"), { code: "ENOENT" })));
    assert.ok(!isCanonError({ code: "timeout" }), "a plain object is not an error");
  });
});
