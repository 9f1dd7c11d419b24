import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isClearlyNotHtml, isHtmlMediaType, mediaTypeEssence } from "../../../src/resolve/http/media-type.js";

describe("media types", () => {
  it("reads the essence in any case, with parameters", () => {
    assert.equal(mediaTypeEssence(" Text/HTML ; charset=UTF-8"), "text/html");
    assert.equal(mediaTypeEssence(["text/plain", "text/html"]), "text/html");
    assert.equal(mediaTypeEssence("html"), null);
    assert.equal(mediaTypeEssence("/html"), null);
    assert.equal(mediaTypeEssence("text/ht ml"), null);
    assert.equal(mediaTypeEssence(undefined), null);
  });

  it("parses only text/html and application/xhtml+xml", () => {
    for (const html of ["text/html", "TEXT/HTML; charset=utf-8", "application/XHTML+XML;q=1"]) {
      assert.equal(isHtmlMediaType(html), true, html);
      assert.equal(isClearlyNotHtml(html), false, html);
    }
    for (const other of ["application/xml", "text/xml", "text/plain", "image/png", "application/json"]) {
      assert.equal(isHtmlMediaType(other), false, other);
      assert.equal(isClearlyNotHtml(other), true, other);
    }
  });

  it("does not call a missing or malformed type clearly not HTML", () => {
    assert.equal(isClearlyNotHtml(undefined), false);
    assert.equal(isClearlyNotHtml(""), false);
    assert.equal(isClearlyNotHtml("nonsense"), false);
    assert.equal(isHtmlMediaType(undefined), false);
  });
});
