import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalize } from "../../src/index.js";

// Issue 22, item 5: fragments that are routes, or that a rule says select content, stay.
describe("fragments", () => {
  it("a route (#/…) or hashbang (#!…) stays: two pages of one app are two keys", () => {
    assert.equal(normalize("https://mail.example.com/#/inbox"), "https://mail.example.com/#/inbox");
    assert.notEqual(normalize("https://app.example/#/inbox"), normalize("https://app.example/#/settings"));
    assert.equal(normalize("https://app.example/#!/projects/12"), "https://app.example/#!/projects/12");
    // On a rule's host too: twitter.com/#!/jack was Twitter's own form.
    assert.equal(normalize("http://twitter.com/#!/jack"), "https://x.com/#!/jack");
  });

  it("every other fragment goes, a bare #/ or #! included", () => {
    assert.equal(normalize("https://example.com/a#top"), "https://example.com/a");
    assert.equal(normalize("https://example.com/a#/"), "https://example.com/a");
    assert.equal(normalize("https://example.com/a#!"), "https://example.com/a");
  });

  it("a rule keeps #gid= on a spreadsheet and #L10 on a GitHub file", () => {
    assert.notEqual(
      normalize("https://docs.google.com/spreadsheets/d/1x/edit#gid=0"),
      normalize("https://docs.google.com/spreadsheets/d/1x/edit#gid=9"),
    );
    assert.equal(
      normalize("https://github.com/a/b/blob/main/x.js#L10"),
      "https://github.com/a/b/blob/main/x.js#L10",
    );
  });

  it("stripFragment: false keeps every fragment, on a rule's URL too (it dropped them before)", () => {
    assert.equal(
      normalize("https://example.com/a#top", { stripFragment: false }),
      "https://example.com/a#top",
    );
    assert.equal(
      normalize("https://www.youtube.com/watch?v=x#foo", { stripFragment: false }),
      "https://www.youtube.com/watch?v=x#foo",
    );
    assert.equal(
      normalize("https://x.com/jack/status/1#m", { stripFragment: false }),
      "https://x.com/i/status/1#m",
    );
  });

  it("is idempotent with kept fragments", () => {
    for (const url of [
      "http://twitter.com/#!/jack",
      "https://app.example/#/a?b=1",
      "https://github.com/a/b/blob/m/x#L1",
    ]) {
      const once = normalize(url);
      assert.equal(normalize(once), once, url);
    }
  });
});
