import type { Parser } from "htmlparser2";
import { ResponseTooLargeError } from "../../errors/response-too-large-error.js";

// htmlparser2 (with entities, domhandler, domutils: ~25 module files) loads with the first HTML
// head to scan, not with the resolver: most resolutions never read a body, and a network-mode CLI
// run paid its load at every start. Measured 6 Dec 2026, Node 20.20.2, 5 runs each:
// `node -e 'import("htmlparser2")'` 0.155 CPU-s against 0.093 for bare `node -e 0`.
let parserModule: Promise<typeof import("htmlparser2")> | undefined;
function loadParser(): Promise<typeof import("htmlparser2")> {
  parserModule ??= import("htmlparser2");
  return parserModule;
}

// HTML §13.2.6.4.4 "in head": these start tags stay in the head; any other start tag (and <body>)
// ends it, so a <link rel=canonical> after it belongs to the body and is not a head hint.
const HEAD_ELEMENTS: ReadonlySet<string> = new Set([
  "html",
  "head",
  "base",
  "basefont",
  "bgsound",
  "link",
  "meta",
  "title",
  "style",
  "script",
  "noscript",
  "template",
  "noframes",
]);

const WHITESPACE = /[ \t\n\r\f]+/;

/**
 * The deepest nesting of open elements the head scan follows. A real head nests three or four
 * deep (html > head > noscript or template > …); htmlparser2 keeps its open elements in an array
 * it grows with `unshift`, so each open tag costs the current depth and a head of nested
 * `<head>`, `<html>` or `<template>` tags costs the square of its length: 8.4 s of CPU for 1 MiB
 * of `<head>` (measured, htmlparser2 12.0.0, before this bound). Past this depth the document is
 * not a real page: the scan stops there and reports what the head held so far, so each open tag
 * costs at most this many steps and the scan stays linear in the bytes read (bench/head-scan.ts).
 */
export const MAX_HEAD_DEPTH = 16;

/** Why the head scan stopped reading. */
export type HeadScanStop = "end-of-head" | "depth" | "end-of-input";

/** What a head scan found and how much work it did (the work figures pin its bounds in tests). */
export interface HeadScan {
  /** The absolute URL of the first `<link rel=canonical>`, resolved against `<base href>`. */
  canonical: string | null;
  /** Bytes handed to the tokenizer. */
  bytesRead: number;
  /** Start and end tags the tokenizer reported while the scan was open. */
  tags: number;
  /** The deepest nesting of open elements seen; never above {@link MAX_HEAD_DEPTH} + 1. */
  maxDepth: number;
  stoppedBy: HeadScanStop;
}

/** What the head scan found: raw hrefs, resolved only once the whole head is known. */
interface HeadFindings {
  canonicalHref: string | null;
  baseHref: string | null;
  done: boolean;
  stoppedBy: HeadScanStop;
  depth: number;
  maxDepth: number;
  tags: number;
}

function createHeadParser(findings: HeadFindings, ParserClass: typeof Parser): Parser {
  // Stopping pauses the tokenizer at once: the rest of a large chunk (a body of nested elements
  // after `<body>`) is never tokenized, so its cost is never paid.
  const stop = (why: HeadScanStop): void => {
    findings.done = true;
    findings.stoppedBy = why;
    parser.pause();
  };
  // The start tag being read: its name and the first href and rel it carried.
  const tag: { name: string; href: string | undefined; rel: string | undefined } = {
    name: "",
    href: undefined,
    rel: undefined,
  };
  const tagComplete = (): void => {
    const href = tag.href;
    if (href === undefined) return;
    // HTML §4.2.3: only the first <base> with an href sets the document base URL.
    if (tag.name === "base" && findings.baseHref === null) findings.baseHref = href;
    if (tag.name === "link" && findings.canonicalHref === null) {
      const rel = (tag.rel ?? "").toLowerCase().split(WHITESPACE);
      if (rel.includes("canonical")) findings.canonicalHref = href;
    }
  };
  const parser: Parser = new ParserClass(
    {
      onopentagname(name) {
        if (findings.done) return;
        findings.tags++;
        if (!HEAD_ELEMENTS.has(name)) return stop("end-of-head");
        // Mirrors the parser's stack: every name opened here is closed by an onclosetag (a void
        // element at once), so depth is the stack's length.
        findings.depth++;
        if (findings.depth > findings.maxDepth) findings.maxDepth = findings.depth;
        if (findings.depth > MAX_HEAD_DEPTH) return stop("depth");
        tag.name = name;
        tag.href = undefined;
        tag.rel = undefined;
      },
      // Attributes one by one, no `onopentag`: given that callback, htmlparser2 collects every
      // attribute of every tag into an object, and a tag with 100,000 distinct attribute names
      // costs a dictionary that size (62 ms of CPU for 1 MiB, measured) for the two names read here.
      onattribute(name, value) {
        if (findings.done) return;
        // A repeated attribute keeps its first value (HTML §13.2.5.33).
        if (name === "href") tag.href ??= value;
        else if (name === "rel") tag.rel ??= value;
      },
      onclosetag(name, isImplied) {
        if (findings.done) return;
        // base and link are void: the parser closes them, implied, as their start tag ends, so this
        // is where their attributes are complete. A tag cut off by the end of input never gets here.
        if (isImplied && name === tag.name) tagComplete();
        findings.depth--;
        if (!isImplied) findings.tags++;
        if (name === "head" && !isImplied) stop("end-of-head");
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  return parser;
}

function resolveFindings(findings: HeadFindings, documentUrl: URL): string | null {
  if (findings.canonicalHref === null) return null;
  // HTML §2.4.1: hrefs resolve against the document base URL; an unusable <base> falls back to
  // the document's own URL.
  const base =
    (findings.baseHref === null ? null : URL.parse(findings.baseHref.trim(), documentUrl.href)) ??
    documentUrl;
  return URL.parse(findings.canonicalHref.trim(), base.href)?.href ?? null;
}

/**
 * Reads an HTML document's head from `chunks` (already decoded from any content-encoding) with a
 * streaming tokenizer and returns the absolute URL of its first `<link rel=canonical>`, resolved
 * against `<base href>` when there is one, else `null`. Reading stops at `</head>`, `<body>` or
 * the first element that cannot be in a head, so the body is never read, and at an element
 * nested deeper than {@link MAX_HEAD_DEPTH} (no real page does that; what the head held so far
 * stands). Throws `ResponseTooLargeError` when the head does not end within `maxBytes`.
 *
 * @example
 * ```ts
 * const chunks = [new TextEncoder().encode('<head><link rel="canonical" href="/a"></head>')];
 * await findHtmlCanonical(chunks, new URL("https://x.test/b"), 1024); // "https://x.test/a"
 * ```
 */
export async function findHtmlCanonical(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  documentUrl: URL,
  maxBytes: number,
): Promise<string | null> {
  return (await scanHtmlHead(chunks, documentUrl, maxBytes)).canonical;
}

/**
 * {@link findHtmlCanonical} with the work it did: bytes read, tags seen, the deepest nesting and
 * why it stopped. Tests pin the scan's bounds with these figures rather than with timings.
 *
 * @example
 * ```ts
 * const scan = await scanHtmlHead([new TextEncoder().encode("<head><head><head>")], new URL("https://x.test/"), 1024);
 * scan.maxDepth; // 3
 * ```
 */
export async function scanHtmlHead(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  documentUrl: URL,
  maxBytes: number,
): Promise<HeadScan> {
  const findings: HeadFindings = {
    canonicalHref: null,
    baseHref: null,
    done: false,
    stoppedBy: "end-of-input",
    depth: 0,
    maxDepth: 0,
    tags: 0,
  };
  const parser = createHeadParser(findings, (await loadParser()).Parser);
  // Streaming decode: a multi-byte character split across two chunks is still read whole.
  const decoder = new TextDecoder("utf-8");
  let read = 0;
  const result = (): HeadScan => ({
    canonical: resolveFindings(findings, documentUrl),
    bytesRead: read,
    tags: findings.tags,
    maxDepth: findings.maxDepth,
    stoppedBy: findings.stoppedBy,
  });
  for await (const chunk of chunks) {
    const room = maxBytes - read;
    const slice = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    read += slice.byteLength;
    parser.write(decoder.decode(slice, { stream: true }));
    if (findings.done) return result();
    if (slice.byteLength < chunk.byteLength) {
      throw new ResponseTooLargeError(
        "response-too-large",
        `HTML head exceeds ${maxBytes} bytes: ${documentUrl.href}`,
        { url: documentUrl.href },
      );
    }
  }
  // A document that ends inside its head (or has no body) is read whole: what we saw is the head.
  parser.write(decoder.decode());
  if (!findings.done) parser.end();
  return result();
}
