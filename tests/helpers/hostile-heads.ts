// HTML heads a hostile server can send, each filled to a given size, for the head-scan bound tests
// (tests/resolve/discover/head-scan-bounds.test.ts) and its benchmark (bench/head-scan.ts).

/** One shape: its name, the text, and whether it nests elements (the super-linear case). */
export interface HostileHead {
  name: string;
  html: string;
  /** Nests open elements without end: the scan must stop at its depth bound. */
  nests: boolean;
  /** Leaves the head at once (`<body>` first) with the rest of the bytes in the same chunk. */
  leavesHead?: boolean;
}

function fill(size: number, prefix: string, unit: string, suffix = ""): string {
  const room = size - prefix.length - suffix.length;
  const whole = Math.max(0, Math.floor(room / unit.length));
  return prefix + unit.repeat(whole) + "x".repeat(Math.max(0, room - whole * unit.length)) + suffix;
}

// One start tag carrying as many distinct attribute names as fit (a0=b a1=b …): a parser that
// collects a tag's attributes into one object builds a dictionary of that size.
function distinctAttributes(size: number, prefix: string): string {
  const parts = [prefix];
  let length = prefix.length;
  for (let i = 0; ; i++) {
    const part = `a${i}=b `;
    if (length + part.length > size) break;
    parts.push(part);
    length += part.length;
  }
  return parts.join("") + "x".repeat(size - length);
}

// A head as real pages write them (meta, preloads, JSON-LD, inline style and script, a canonical),
// repeated: the benign peer the hostile shapes are measured against.
const REAL_BLOCK =
  '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<meta property="og:title" content="An article &amp; its &quot;title&quot;">' +
  '<link rel="preload" href="/static/app.3f9a.js" as="script" crossorigin>' +
  '<link rel="stylesheet" href="/static/app.3f9a.css" media="all">' +
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"x < y"}</script>' +
  "<style>.a>.b{color:red}/* </div> */ body{margin:0}</style>" +
  '<script>window.__STATE__ = {"items": [1,2,3], "html": "<div>"};</script>' +
  "<noscript><link rel=stylesheet href=/no-js.css></noscript>" +
  '<link rel="alternate" hreflang="de" href="https://example.test/de/">';

/**
 * The benign page: `size` bytes of a real-looking head, its canonical and `</head>` at the very end.
 *
 * @example
 * ```ts
 * benignHead(1 << 20).length; // 1048576
 * ```
 */
export function benignHead(size: number): string {
  return fill(
    size,
    "<!doctype html><html><head><title>t</title>",
    REAL_BLOCK,
    '<link rel="canonical" href="/benign"></head>',
  );
}

/**
 * Every hostile shape, `size` bytes each.
 *
 * @example
 * ```ts
 * hostileHeads(1 << 20).map((shape) => shape.name); // ["nested head", "nested html", ...]
 * ```
 */
export function hostileHeads(size: number): HostileHead[] {
  const head = "<html><head>";
  return [
    { name: "nested head", html: fill(size, "<html>", "<head>"), nests: true },
    { name: "nested html", html: fill(size, "", "<html>"), nests: true },
    { name: "nested template", html: fill(size, head, "<template>"), nests: true },
    { name: "nested noscript", html: fill(size, head, "<noscript>"), nests: true },
    { name: "nested bgsound", html: fill(size, head, "<bgsound>"), nests: true },
    { name: "nested noscript+template", html: fill(size, head, "<noscript><template>"), nests: true },
    { name: "nested with attributes", html: fill(size, head, '<template id="a" class="b">'), nests: true },
    { name: "unclosed script", html: fill(size, `${head}<script>`, "<a><b></c>"), nests: false },
    { name: "unclosed style", html: fill(size, `${head}<style>`, "<a><b></c>"), nests: false },
    { name: "unclosed title", html: fill(size, `${head}<title>`, "<a>&amp;"), nests: false },
    { name: "many attributes", html: fill(size, `${head}<meta `, "a=b "), nests: false },
    { name: "many distinct attributes", html: distinctAttributes(size, `${head}<meta `), nests: false },
    { name: "one attribute repeated", html: fill(size, `${head}<meta `, "rel=x "), nests: false },
    {
      name: "huge attribute value",
      html: fill(size, `${head}<link rel=canonical href="`, "a"),
      nests: false,
    },
    { name: "comment flood", html: fill(size, head, "<!---->"), nests: false },
    { name: "unterminated comment", html: fill(size, `${head}<!--`, "-- -"), nests: false },
    { name: "entity flood", html: fill(size, `${head}<title>`, "&amp;&#x41;&lt;"), nests: false },
    {
      name: "entity flood in attribute",
      html: fill(size, `${head}<meta content="`, "&amp;&quot;"),
      nests: false,
    },
    {
      name: "long unknown entities",
      html: fill(size, `${head}<meta content="`, `&${"a".repeat(40)}`),
      nests: false,
    },
    { name: "many canonical links", html: fill(size, head, "<link rel=canonical href=/x>"), nests: false },
    { name: "many base elements", html: fill(size, head, "<base href=/b/>"), nests: false },
    { name: "end-tag flood", html: fill(size, head, "</x>"), nests: false },
    { name: "template open/close", html: fill(size, head, "<template></template>"), nests: false },
    { name: "lone < flood", html: fill(size, head, "<"), nests: false },
    { name: "CDATA and PI flood", html: fill(size, head, "<![CDATA[x]]><?x?>"), nests: false },
    {
      name: "body, then nested divs in one chunk",
      html: fill(size, "<html><head><body>", "<div>"),
      nests: false,
      leavesHead: true,
    },
  ];
}

/**
 * `bytes` cut into `size`-byte chunks, as a socket delivers them.
 *
 * @example
 * ```ts
 * chunked(new Uint8Array(40000), 16384).length; // 3
 * ```
 */
export function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}
