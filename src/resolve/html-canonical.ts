import { Parser } from "htmlparser2";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";

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

/** What the head scan found: raw hrefs, resolved only once the whole head is known. */
interface HeadFindings {
  canonicalHref: string | null;
  baseHref: string | null;
  done: boolean;
}

function createHeadParser(findings: HeadFindings): Parser {
  return new Parser(
    {
      onopentag(name, attributes) {
        if (findings.done) return;
        if (!HEAD_ELEMENTS.has(name)) {
          findings.done = true;
          return;
        }
        // HTML §4.2.3: only the first <base> with an href sets the document base URL.
        if (name === "base" && findings.baseHref === null && attributes.href !== undefined) {
          findings.baseHref = attributes.href;
        }
        if (name === "link" && findings.canonicalHref === null && attributes.href !== undefined) {
          const rel = (attributes.rel ?? "").toLowerCase().split(WHITESPACE);
          if (rel.includes("canonical")) findings.canonicalHref = attributes.href;
        }
      },
      onclosetag(name, isImplied) {
        if (name === "head" && !isImplied) findings.done = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
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
 * the first element that cannot be in a head, so the body is never read. Throws
 * `ResponseTooLargeError` when the head does not end within `maxBytes`.
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
  const findings: HeadFindings = { canonicalHref: null, baseHref: null, done: false };
  const parser = createHeadParser(findings);
  // Streaming decode: a multi-byte character split across two chunks is still read whole.
  const decoder = new TextDecoder("utf-8");
  let read = 0;
  for await (const chunk of chunks) {
    const room = maxBytes - read;
    const slice = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    read += slice.byteLength;
    parser.write(decoder.decode(slice, { stream: true }));
    if (findings.done) return resolveFindings(findings, documentUrl);
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
  parser.end();
  return resolveFindings(findings, documentUrl);
}
