// Fuzzing the resolver's parsers of server-controlled text: the Link header, Location resolution,
// media types and the HTML head scan (issue 11). Each property is total (nothing but the documented
// CanonError escapes), bounded (work and output never exceed the input), consistent where that
// means something (per-field parsing, serialize/parse round trips, chunking invariance), and
// counts that the interesting branches were reached.
//
// FUZZ_RUNS=N sets the runs of every property (the long mode: `FUZZ_RUNS=1000000`, wired into
// `npm run fuzz`); the default keeps `npm test` quick. FUZZ_SEED overrides the fixed seed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { CanonError } from "../../src/errors/canon-error.js";
import { isRedirectError, isResponseTooLargeError, isUrlError } from "../../src/errors/guards.js";
import { MAX_HEAD_DEPTH, scanHtmlHead } from "../../src/resolve/discover/html-canonical.js";
import { findLinkCanonical, parseLinkHeader } from "../../src/resolve/discover/link-header.js";
import { resolveLocation } from "../../src/resolve/discover/location.js";
import { isClearlyNotHtml, isHtmlMediaType, mediaTypeEssence } from "../../src/resolve/http/media-type.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_104);
const LONG = RUNS > 100_000;
if (!Number.isSafeInteger(RUNS) || RUNS < 1)
  throw new Error(`FUZZ_RUNS must be a positive integer, got ${RUNS}`);

/** Branch counters, printed in the long mode so a run can be reported. */
function counters<K extends string>(...names: K[]): Record<K, number> {
  return Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>;
}
function report(name: string, runs: number, counts: Record<string, number>): void {
  if (LONG) console.log(`# fuzz ${name}: ${runs} runs ${JSON.stringify(counts)}`);
}

// URL-ish pieces that reach the hostile corners: dots and escapes in hosts, brackets, backslashes,
// userinfo, IPv6 literals, non-ASCII, control characters, other schemes.
const urlPiece = fc.constantFrom(
  "http://",
  "https://",
  "HTTP://",
  "ftp://",
  "javascript:",
  "data:text/html,",
  "//",
  "/",
  "\\",
  "a.test",
  "A.Test.",
  "..",
  ".",
  "%2e",
  "%2E%2e",
  "%00",
  "%zz",
  "[::1]",
  "[",
  "]",
  "[::ffff:127.0.0.1]",
  "0x7f.1",
  "user:pw@",
  "@",
  ":80",
  ":99999",
  "?",
  "#",
  "&",
  "=",
  "é",
  "münchen",
  "\u0000",
  "\t",
  "\n",
  " ",
  "xn--",
  "\uFFFD",
  "\u00ff",
);
const urlish = fc.array(urlPiece, { maxLength: 8 }).map((parts) => parts.join(""));
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 40 }));

// ---------------------------------------------------------------- Link header

const linkPiece = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom("<", ">", ";", ",", '"', "\\", "=", " ", "\t", "rel", "canonical"),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom("rel=canonical", 'rel="Canonical alternate"', "anchor=", 'anchor="#x"'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom("</c>; rel=canonical", '<https://a.test/x>;rel="next CANONICAL"', "<#y>"),
  },
  { weight: 3, arbitrary: urlish },
  { weight: 1, arbitrary: anyText },
);
const linkSoup = fc.array(linkPiece, { maxLength: 16 }).map((parts) => parts.join(""));

// A structured link that serializes unambiguously: what the round-trip property parses back.
const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const structuredLink = fc.record({
  target: urlish.map((u) => u.replace(/[<>]/g, "")),
  rel: fc.array(fc.constantFrom("canonical", "Alternate", "PRELOAD", "next"), { minLength: 1, maxLength: 3 }),
  params: fc.array(fc.tuple(token, fc.string({ maxLength: 12 })), { maxLength: 3 }),
});
function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

describe("resolver parsers (fast-check, fixed seed)", () => {
  it(`parseLinkHeader is total, bounded and per-field over ${RUNS} header soups`, () => {
    const seen = counters("links", "canonical", "anchored", "quotedEscape", "malformedSkipped", "multiField");
    fc.assert(
      fc.property(fc.oneof(linkSoup, fc.array(linkSoup, { maxLength: 4 })), (fields) => {
        const links = parseLinkHeader(fields);
        const list = typeof fields === "string" ? [fields] : fields;
        const text = list.join("");
        // Bounded: a link per `<` at most, and nothing longer than its input.
        assert.ok(links.length <= (text.match(/</g) ?? []).length);
        for (const link of links) {
          assert.ok(link.target.length <= text.length);
          assert.ok(link.rel.every((r) => r !== "" && r === r.toLowerCase()));
        }
        // Consistent: several fields parse as the concatenation of each parsed alone.
        if (list.length > 1) {
          seen.multiField++;
          assert.deepEqual(
            links,
            list.flatMap((f) => parseLinkHeader(f)),
          );
        }
        if (links.length > 0) seen.links++;
        if (links.some((l) => l.rel.includes("canonical"))) seen.canonical++;
        if (links.some((l) => l.params.anchor !== undefined)) seen.anchored++;
        if (/"[^"]*\\/.test(text) && links.length > 0) seen.quotedEscape++;
        if (/(^|,)\s*[^<\s,]/.test(text) && links.length > 0) seen.malformedSkipped++;
        const base = new URL("https://ctx.test/a/b?c");
        const found = findLinkCanonical(fields, base);
        if (found !== null) assert.equal(URL.parse(found)?.href, found, "an absolute, parsed URL");
      }),
      { seed: SEED, numRuns: RUNS },
    );
    report("link-header", RUNS, seen);
    for (const [branch, n] of Object.entries(seen)) assert.ok(n > 0, `branch never reached: ${branch}`);
  });

  it("a serialized link parses back to what was serialized", () => {
    let withParams = 0;
    fc.assert(
      fc.property(fc.array(structuredLink, { minLength: 1, maxLength: 3 }), (links) => {
        const header = links
          .map(
            (l) =>
              `<${l.target}>; rel=${quote(l.rel.join(" "))}${l.params.map(([n, v]) => `; ${n}=${quote(v)}`).join("")}`,
          )
          .join(", ");
        const parsed = parseLinkHeader(header);
        assert.equal(parsed.length, links.length, header);
        for (const [i, link] of links.entries()) {
          const got = parsed[i];
          assert.ok(got !== undefined);
          assert.equal(got.target, link.target.trim());
          assert.deepEqual(
            got.rel,
            link.rel.map((r) => r.toLowerCase()),
          );
          for (const [name] of link.params) {
            if (name === "rel") continue;
            const first = link.params.find(([n]) => n === name);
            assert.equal(got.params[name], first?.[1], header);
          }
          if (link.params.length > 0) withParams++;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    assert.ok(withParams > 0);
  });

  // ------------------------------------------------------------------------- Location

  it(`resolveLocation is total over ${RUNS} values: an http(s) URL or a documented CanonError`, () => {
    const seen = counters("ok", "invalidLocation", "unsupportedScheme", "utf8Redecoded", "conflicting");
    const bases = ["http://a.test/x/y?q", "https://b.test/", "http://[::1]:8080/p/"].map((b) => new URL(b));
    const value = fc.oneof(
      urlish,
      anyText,
      fc.array(urlish, { maxLength: 3 }),
      fc.constant(undefined),
      // UTF-8 bytes read as latin1, as Node hands a raw non-ASCII header over.
      urlish.map((u) => Buffer.from(`/é${u}`, "utf8").toString("latin1")),
    );
    fc.assert(
      fc.property(value, fc.constantFrom(...bases), (location, base) => {
        let target: URL;
        try {
          target = resolveLocation(location, base);
        } catch (error) {
          assert.ok(error instanceof CanonError, String(error));
          if (isRedirectError(error) && error.code === "invalid-location") {
            seen.invalidLocation++;
            if (Array.isArray(location) && new Set(location).size > 1) seen.conflicting++;
          } else if (isUrlError(error) && error.code === "unsupported-scheme") seen.unsupportedScheme++;
          else assert.fail(`undocumented error ${error.code}`);
          return;
        }
        seen.ok++;
        assert.ok(target.protocol === "http:" || target.protocol === "https:");
        // Consistent: the absolute result resolves to itself against any base.
        assert.equal(resolveLocation(target.href, bases[1] as URL).href, target.href);
        if (
          typeof location === "string" &&
          /[\u0080-\u00ff]/.test(location) &&
          target.href.includes("%C3%A9")
        )
          seen.utf8Redecoded++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    report("location", RUNS, seen);
    for (const [branch, n] of Object.entries(seen)) assert.ok(n > 0, `branch never reached: ${branch}`);
  });

  // ------------------------------------------------------------------------ media type

  it(`media-type parsing is total and idempotent over ${RUNS} values`, () => {
    const seen = counters("html", "notHtml", "invalid", "withParams", "list");
    const piece = fc.constantFrom(
      "text",
      "TEXT",
      "html",
      "application",
      "xhtml+xml",
      "/",
      ";",
      " ",
      "\t",
      "charset=utf-8",
      '"',
      ",",
      "image/png",
      "text/html",
      "Application/XHTML+xml",
      "é",
      "=",
    );
    const value = fc.oneof(
      fc.array(piece, { maxLength: 8 }).map((p) => p.join("")),
      anyText,
      fc.array(
        fc.array(piece, { maxLength: 5 }).map((p) => p.join("")),
        { maxLength: 3 },
      ),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(value, (raw) => {
        const essence = mediaTypeEssence(raw);
        if (Array.isArray(raw)) {
          seen.list++;
          assert.equal(essence, mediaTypeEssence(raw[raw.length - 1]));
        }
        if (essence === null) {
          seen.invalid++;
          assert.equal(isHtmlMediaType(raw), false);
          assert.equal(isClearlyNotHtml(raw), false);
          return;
        }
        assert.match(essence, /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/);
        assert.equal(mediaTypeEssence(essence), essence, "idempotent");
        assert.equal(
          mediaTypeEssence(`${essence.toUpperCase()}; q=1`),
          essence,
          "parameters and case do not count",
        );
        assert.notEqual(isHtmlMediaType(raw), isClearlyNotHtml(raw));
        if (isHtmlMediaType(raw)) seen.html++;
        else seen.notHtml++;
        if (typeof raw === "string" && raw.includes(";")) seen.withParams++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    report("media-type", RUNS, seen);
    for (const [branch, n] of Object.entries(seen)) assert.ok(n > 0, `branch never reached: ${branch}`);
  });

  // ------------------------------------------------------------------------ head scan

  it(`the head scan is total, bounded and chunking-invariant over ${RUNS} documents`, async () => {
    const seen = counters(
      "canonical",
      "viaBase",
      "endOfHead",
      "depthStop",
      "endOfInput",
      "tooLarge",
      "splitMultibyte",
    );
    const tag = fc.constantFrom(
      "html",
      "head",
      "HEAD",
      "template",
      "noscript",
      "title",
      "style",
      "script",
      "meta",
      "base",
      "link",
      "div",
      "body",
      "svg",
      "noframes",
      "bgsound",
    );
    const attr = fc.oneof(
      fc.constantFrom("rel=canonical", 'rel="Alternate CANONICAL"', "REL=canonical", "rel"),
      urlish.map((u) => `href="${u.replace(/"/g, "&quot;")}"`),
      urlish.map((u) => `href=${u.replace(/[\s>]/g, "")}`),
      fc.constantFrom("href='/c'", "href=&#x2F;e", "a=&amp;", "x", 'y="'),
    );
    const node = fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .tuple(tag, fc.array(attr, { maxLength: 3 }))
          .map(([t, a]) => `<${[t, ...a].join(" ")}>`),
      },
      { weight: 3, arbitrary: tag.map((t) => `</${t}>`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "<!--",
          "-->",
          "<!---->",
          "&amp;",
          "&",
          "<",
          "<![CDATA[",
          "]]>",
          "é€😀",
          "\u0000",
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom("<template>".repeat(MAX_HEAD_DEPTH + 1), "<head>".repeat(20)) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "<link rel=canonical href=/c>",
          '<LINK REL="alternate canonical" HREF="../d?e#f">',
          "<base href=https://other.test/b/>",
          "<base href='//x.test/'>",
        ),
      },
      { weight: 1, arbitrary: anyText },
    );
    const doc = fc.array(node, { maxLength: 30 }).map((n) => n.join(""));
    const url = new URL("https://doc.test/dir/page");
    const scan = async (bytes: Uint8Array, cuts: number[], maxBytes: number) => {
      const chunks: Uint8Array[] = [];
      let at = 0;
      for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
        chunks.push(bytes.subarray(at, cut));
        at = cut;
      }
      chunks.push(bytes.subarray(at));
      try {
        return await scanHtmlHead(chunks, url, maxBytes);
      } catch (error) {
        if (isResponseTooLargeError(error)) return "response-too-large" as const;
        throw error;
      }
    };
    await fc.assert(
      fc.asyncProperty(
        doc,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.nat({ max: 600 }),
        async (html, cuts, max) => {
          const bytes = new TextEncoder().encode(html);
          const maxBytes = 64 + max;
          const whole = await scan(bytes, [], maxBytes);
          const split = await scan(bytes, cuts, maxBytes);
          // A multi-byte character cut in two must still decode whole.
          if (
            cuts.some(
              (c) =>
                bytes[c % (bytes.length + 1)] !== undefined &&
                ((bytes[c % (bytes.length + 1)] as number) & 0xc0) === 0x80,
            )
          )
            seen.splitMultibyte++;
          if (whole === "response-too-large") {
            seen.tooLarge++;
            assert.equal(split, "response-too-large");
            assert.ok(bytes.length > maxBytes);
            return;
          }
          assert.notEqual(split, "response-too-large");
          if (split === "response-too-large") return;
          // Chunking-invariant: where the bytes were cut changes nothing found.
          assert.equal(split.canonical, whole.canonical, html);
          assert.equal(split.stoppedBy, whole.stoppedBy, html);
          // Bounded.
          assert.ok(whole.bytesRead <= Math.min(bytes.length, maxBytes));
          assert.ok(whole.maxDepth <= MAX_HEAD_DEPTH + 1);
          assert.ok(whole.tags <= html.length);
          if (whole.canonical !== null) {
            seen.canonical++;
            assert.equal(URL.parse(whole.canonical)?.href, whole.canonical);
            if (!whole.canonical.startsWith("https://doc.test/")) seen.viaBase++;
          }
          if (whole.stoppedBy === "end-of-head") seen.endOfHead++;
          if (whole.stoppedBy === "depth") seen.depthStop++;
          if (whole.stoppedBy === "end-of-input") seen.endOfInput++;
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    report("head-scan", RUNS, seen);
    for (const [branch, n] of Object.entries(seen)) assert.ok(n > 0, `branch never reached: ${branch}`);
  });
});
