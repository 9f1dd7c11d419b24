// Issue 11: a hostile head must not burn CPU on the event loop. htmlparser2 grows its open-element
// stack with unshift, so nested elements cost the square of their count (8.4 s for 1 MiB of
// `<head>`); the scan now stops at MAX_HEAD_DEPTH. Bounds are pinned structurally (depth, tags,
// bytes read, why it stopped); the timeouts are hang guards only, CPU figures are in
// bench/head-scan.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  findHtmlCanonical,
  MAX_HEAD_DEPTH,
  scanHtmlHead,
} from "../../../src/resolve/discover/html-canonical.js";
import { benignHead, chunked, hostileHeads } from "../../helpers/hostile-heads.js";

const MiB = 1 << 20;
const doc = new URL("https://site.test/page");
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("head scan bounds", () => {
  it("2 MiB of nested <head> ends at once (hang guard: it took 13 s before the bound)", {
    timeout: 5_000,
  }, async () => {
    const html = `<html>${"<head>".repeat((2 * MiB) / 6)}`;
    assert.equal(await findHtmlCanonical(chunked(enc(html), 2 * MiB), doc, 4 * MiB), null);
  });

  for (const shape of hostileHeads(MiB)) {
    it(`${shape.name}: bounded work on 1 MiB`, { timeout: 10_000 }, async () => {
      const bytes = enc(shape.html);
      // One chunk: the worst case for "stop at once", nothing after the stop may be tokenized.
      const scan = await scanHtmlHead([bytes], doc, 2 * MiB).catch((e: unknown) => e);
      assert.ok(!(scan instanceof Error), String(scan));
      const s = scan as Awaited<ReturnType<typeof scanHtmlHead>>;
      assert.ok(s.maxDepth <= MAX_HEAD_DEPTH + 1, `depth ${s.maxDepth}`);
      if (shape.nests) {
        assert.equal(s.stoppedBy, "depth");
        assert.ok(s.tags <= MAX_HEAD_DEPTH + 3, `${s.tags} tags`);
      } else if (shape.leavesHead === true) {
        assert.equal(s.stoppedBy, "end-of-head");
        // html, head, body: the divs after it are never tokenized.
        assert.equal(s.tags, 3);
      } else {
        assert.notEqual(s.stoppedBy, "depth");
      }
    });
  }

  it("a canonical before the nesting is still reported; one past the bound is not", async () => {
    const before = `<html><head><link rel=canonical href=/c>${"<template>".repeat(100)}`;
    assert.equal(await findHtmlCanonical([enc(before)], doc, MiB), "https://site.test/c");
    const past = `<html><head>${"<template>".repeat(MAX_HEAD_DEPTH)}<link rel=canonical href=/c>`;
    const scan = await scanHtmlHead([enc(past)], doc, MiB);
    assert.equal(scan.stoppedBy, "depth");
    assert.equal(scan.canonical, null);
  });

  it("real nesting (noscript, template, a repeated html/head) is well inside the bound", async () => {
    const page =
      "<!doctype html><html><head><html><head><noscript><template><template><style>x</style></template></template></noscript>" +
      '<link rel="canonical" href="/real"></head><body>';
    const scan = await scanHtmlHead([enc(page)], doc, MiB);
    assert.equal(scan.canonical, "https://site.test/real");
    assert.equal(scan.stoppedBy, "end-of-head");
    assert.ok(scan.maxDepth < MAX_HEAD_DEPTH, `depth ${scan.maxDepth}`);
  });

  it("a benign 1 MiB head is read whole and its canonical found, in socket-sized chunks", async () => {
    const scan = await scanHtmlHead(chunked(enc(benignHead(MiB - 64)), 16_384), doc, MiB);
    assert.equal(scan.stoppedBy, "end-of-head");
    assert.equal(scan.canonical, "https://site.test/benign");
    assert.ok(scan.bytesRead > MiB - 200, `${scan.bytesRead}`);
    assert.ok(scan.maxDepth <= 4, `depth ${scan.maxDepth}`);
  });
});
