import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findLinkCanonical, parseLinkHeader } from "../../../src/resolve/discover/link-header.js";

const base = new URL("https://site.test/dir/page?q=1");

describe("parseLinkHeader (RFC 8288 §3, Appendix B)", () => {
  it("reads one link with a bare rel", () => {
    assert.deepEqual(parseLinkHeader("<https://a.test/x>; rel=canonical"), [
      { target: "https://a.test/x", rel: ["canonical"], params: { rel: "canonical" } },
    ]);
  });

  it("reads several links in one field", () => {
    const links = parseLinkHeader('</a>; rel="preload", </b>; rel=canonical,</c>;rel=next');
    assert.deepEqual(
      links.map((l) => [l.target, l.rel]),
      [
        ["/a", ["preload"]],
        ["/b", ["canonical"]],
        ["/c", ["next"]],
      ],
    );
  });

  it("reads several fields in order", () => {
    const links = parseLinkHeader(["</a>; rel=next", "</b>; rel=canonical"]);
    assert.deepEqual(
      links.map((l) => l.target),
      ["/a", "/b"],
    );
  });

  it("keeps , ; and < inside quoted parameters without splitting", () => {
    const links = parseLinkHeader('</a>; title="x, <y>; z"; rel="next", </b>; rel=canonical');
    assert.equal(links.length, 2);
    assert.equal(links[0]?.params.title, "x, <y>; z");
    assert.deepEqual(links[0]?.rel, ["next"]);
    assert.equal(links[1]?.target, "/b");
    assert.deepEqual(links[1]?.rel, ["canonical"]);
  });

  it("unescapes quoted-pairs (Appendix B.4)", () => {
    const [link] = parseLinkHeader('</a>; title="say \\"hi\\" \\\\ bye"; rel=canonical');
    assert.equal(link?.params.title, 'say "hi" \\ bye');
  });

  it("treats rel as a case-insensitive, whitespace-separated token list", () => {
    const [link] = parseLinkHeader('</a>; REL="Preload  CANONICAL\tnext"');
    assert.deepEqual(link?.rel, ["preload", "canonical", "next"]);
  });

  it("uses the first rel parameter only (§3.3)", () => {
    const [link] = parseLinkHeader("</a>; rel=next; rel=canonical");
    assert.deepEqual(link?.rel, ["next"]);
  });

  it("allows whitespace around = and ; (BWS, OWS)", () => {
    const [link] = parseLinkHeader('  </a>  ;  rel = "canonical"  ;  type = text/html ');
    assert.deepEqual(link?.rel, ["canonical"]);
    assert.equal(link?.params.type, "text/html");
  });

  it("keeps commas inside the target", () => {
    const [link] = parseLinkHeader("<https://a.test/x,y;z>; rel=canonical");
    assert.equal(link?.target, "https://a.test/x,y;z");
  });

  it("skips a malformed element and keeps the links after it", () => {
    const links = parseLinkHeader('garbage; rel="a,b", </ok>; rel=canonical');
    assert.deepEqual(
      links.map((l) => l.target),
      ["/ok"],
    );
  });

  it("ignores empty list elements and a parameter without a value", () => {
    const links = parseLinkHeader(", , </a>; crossorigin; rel=canonical ,,");
    assert.equal(links.length, 1);
    assert.equal(links[0]?.params.crossorigin, "");
  });

  it("stops at an unterminated target", () => {
    assert.deepEqual(parseLinkHeader("</a; rel=canonical"), []);
  });

  it("returns nothing for undefined or empty fields", () => {
    assert.deepEqual(parseLinkHeader(undefined), []);
    assert.deepEqual(parseLinkHeader(""), []);
    assert.deepEqual(parseLinkHeader([]), []);
  });

  it("does not let a quoted comma in one field split a link across fields", () => {
    const links = parseLinkHeader(['</a>; title="p,', '</b>; rel=canonical"']);
    // Each field is parsed alone: the first ends inside its quote, the second is a whole link whose
    // rel ends with a stray quote (not the token "canonical").
    assert.equal(links.length, 2);
    assert.deepEqual(links[1]?.rel, ['canonical"']);
  });
});

describe("findLinkCanonical", () => {
  it("resolves a relative target against the request URL", () => {
    assert.equal(findLinkCanonical("<../other>; rel=canonical", base), "https://site.test/other");
    assert.equal(findLinkCanonical("<?q=2>; rel=canonical", base), "https://site.test/dir/page?q=2");
    assert.equal(findLinkCanonical("<//cdn.test/x>; rel=canonical", base), "https://cdn.test/x");
  });

  it("takes the first canonical among several links", () => {
    assert.equal(
      findLinkCanonical(["</n>; rel=next", '</c1>; rel="canonical", </c2>; rel=canonical'], base),
      "https://site.test/c1",
    );
  });

  it("returns null when no link has rel canonical", () => {
    assert.equal(findLinkCanonical('</a>; rel="canonicalx preload"', base), null);
    assert.equal(findLinkCanonical(undefined, base), null);
  });

  it("skips a canonical whose anchor names another resource (§3.2)", () => {
    assert.equal(
      findLinkCanonical('</c>; rel=canonical; anchor="/elsewhere", </d>; rel=canonical', base),
      "https://site.test/d",
    );
    assert.equal(findLinkCanonical('</c>; rel=canonical; anchor="#frag"', base), "https://site.test/c");
  });

  it("returns non-http targets as they are (the hop loop ignores them)", () => {
    assert.equal(findLinkCanonical("<mailto:a@b.test>; rel=canonical", base), "mailto:a@b.test");
  });
});
