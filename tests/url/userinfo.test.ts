import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalize } from "../../src/index.js";
import { userinfoOf } from "../../src/url/userinfo.js";

describe("userinfoOf (the userinfo every href built from parts carries)", () => {
  it("writes what the URL serializer writes, for every empty/non-empty combination", () => {
    for (const [user, pass] of [
      ["", ""],
      ["ann", ""],
      ["", "pw"],
      ["ann", "pw"],
      ["a%40b", "p%3Aw"],
    ] as const) {
      const url = new URL("http://h.test/");
      url.username = user;
      url.password = pass;
      assert.equal(`http://${userinfoOf(user, pass)}h.test/`, url.href);
    }
  });

  it("is what the generic pass, a rule's rewrite and the final pass keep", () => {
    const keep = { preset: "rfc3986" } as const;
    assert.equal(normalize("http://:pw@h.test/", keep), "http://:pw@h.test/");
    assert.equal(normalize("http://ann@h.test/", keep), "http://ann@h.test/");
    const rules = { stripUserinfo: false } as const;
    assert.equal(
      normalize("https://ann:pw@twitter.com/jack/status/20", rules),
      "https://ann:pw@x.com/i/status/20",
    );
    assert.equal(
      normalize("https://:pw@www.youtube.com/embed/abc", rules),
      "https://:pw@www.youtube.com/watch?v=abc",
    );
  });
});
