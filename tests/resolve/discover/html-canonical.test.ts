import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isResponseTooLargeError } from "../../../src/errors/guards.js";
import { findHtmlCanonical } from "../../../src/resolve/discover/html-canonical.js";

const doc = new URL("https://site.test/dir/page");
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

async function find(html: string | string[], max = 1 << 20): Promise<string | null> {
  const chunks = (typeof html === "string" ? [html] : html).map(enc);
  return findHtmlCanonical(chunks, doc, max);
}

describe("findHtmlCanonical", () => {
  it("finds <link rel=canonical> in the head, resolved against the document", async () => {
    assert.equal(
      await find('<html><head><link rel="canonical" href="/c"></head><body>x</body>'),
      "https://site.test/c",
    );
  });

  it("matches rel case-insensitively within a token list, attribute names in any case", async () => {
    assert.equal(
      await find('<head><LINK REL="Alternate CANONICAL" HREF="x"></head>'),
      "https://site.test/dir/x",
    );
  });

  it("honours <base href>, even one after the link, only the first", async () => {
    assert.equal(
      await find(
        '<head><link rel=canonical href="c"><base href="https://other.test/b/"><base href="/no/"></head>',
      ),
      "https://other.test/b/c",
    );
  });

  it("ignores a canonical in the body, after </head> or after a body-only element", async () => {
    assert.equal(await find('<head></head><body><link rel="canonical" href="/c"></body>'), null);
    assert.equal(await find('<head><title>t</title></head><link rel="canonical" href="/c">'), null);
    assert.equal(await find('<html><div>x</div><link rel="canonical" href="/c">'), null);
  });

  it("finds a canonical in an implied head (no <head> tag)", async () => {
    assert.equal(
      await find('<!doctype html><meta charset=utf-8><link rel=canonical href="/c">'),
      "https://site.test/c",
    );
  });

  it("does not see links inside comments or scripts", async () => {
    assert.equal(
      await find(
        '<head><!-- <link rel=canonical href="/no"> --><script>"<link rel=canonical href=/no2>"</script></head>',
      ),
      null,
    );
  });

  it("takes the first canonical, decodes entities, and ignores one without href", async () => {
    assert.equal(
      await find(
        '<head><link rel=canonical><link rel=canonical href="/a?x=1&amp;y=2"><link rel=canonical href="/b"></head>',
      ),
      "https://site.test/a?x=1&y=2",
    );
  });

  it("reads each tag's own attributes: a repeated one keeps its first value, none leak to the next tag", async () => {
    assert.equal(
      await find('<head><link rel=canonical href="/first" HREF="/second" rel=alternate></head>'),
      "https://site.test/first",
    );
    assert.equal(await find('<head><link rel=alternate rel=canonical href="/a"></head>'), null);
    assert.equal(await find('<head><link rel=canonical><link href="/a"></head>'), null);
    assert.equal(await find('<head><meta rel=canonical href="/a"><link rel=canonical></head>'), null);
    assert.equal(
      await find('<head><base href="/b/" /><link rel=canonical href="c" /></head>'),
      "https://site.test/b/c",
    );
    // A link cut off by the end of the document is not a canonical.
    assert.equal(await find('<head><link rel=canonical href="/a"'), null);
  });

  it("reads a head split across chunks, even inside a tag and a UTF-8 character", async () => {
    const bytes = enc('<head><link rel="canonical" href="/caf\u00e9"></head>');
    const chunks = Array.from(bytes, (b) => Uint8Array.of(b));
    assert.equal(await findHtmlCanonical(chunks, doc, 1024), "https://site.test/caf%C3%A9");
  });

  it("stops reading at the end of the head", async () => {
    let pulled = 0;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      pulled++;
      yield enc('<head><link rel=canonical href="/c"></head>');
      pulled++;
      yield enc("<body>");
      throw new Error("the body was read");
    }
    assert.equal(await findHtmlCanonical(chunks(), doc, 1024), "https://site.test/c");
    assert.equal(pulled, 1);
  });

  it("raises response-too-large when the head does not end within the limit", async () => {
    const head = `<head><title>${"x".repeat(5000)}</title></head>`;
    await assert.rejects(find(head, 1000), (e) => isResponseTooLargeError(e) && e.message.includes(doc.href));
  });

  it("accepts a head that ends exactly within the limit even when the chunk has more", async () => {
    const head = '<head><link rel=canonical href="/c"></head>';
    assert.equal(await find(head + "x".repeat(10_000), head.length), "https://site.test/c");
    await assert.rejects(find(head, head.length - 1), isResponseTooLargeError);
  });

  it("reads a short document that ends inside its head", async () => {
    assert.equal(await find('<link rel=canonical href="/c">', 100_000), "https://site.test/c");
    assert.equal(await find("", 10), null);
  });

  it("returns null for an unresolvable href", async () => {
    assert.equal(await find('<head><link rel=canonical href="http://[bad"></head>'), null);
  });
});
