import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { alphaReorderQuery } from "../../src/archive/alpha-reorder-query.js";
import { parseArchiveUrl } from "../../src/archive/archive-url.js";
import { surtOfCanonical } from "../../src/archive/canonical-surt.js";
import { formatSurt } from "../../src/archive/format-archive-url.js";
import { googleCanonicalize, normalizeArchivePath } from "../../src/archive/google-canonicalize.js";
import { iaCanonicalize } from "../../src/archive/ia-canonicalize.js";
import { escapeOnce, minimalEscape, unescapeRepeatedly } from "../../src/archive/percent-bytes.js";
import { stripQuerySessionId } from "../../src/archive/strip-session-ids.js";
import { normalize, surt } from "../../src/index.js";

const SEED = 20261204;

// Reference: surt's loop, one whole-string decode per round until nothing changes.
function decodeOnce(bytes: number[]): number[] {
  const out: number[] = [];
  const hex = (c: number | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(String.fromCharCode(c));
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25 && hex(bytes[i + 1]) && hex(bytes[i + 2])) {
      out.push(Number.parseInt(String.fromCharCode(bytes[i + 1] as number, bytes[i + 2] as number), 16));
      i += 2;
    } else out.push(bytes[i] as number);
  }
  return out;
}

// Reference: the session-id regexes of the surt package (archive-commons), applied in order.
const SESSION_REGEXES = [
  /^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$/i,
  /^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$/i,
  /^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$/i,
  /^(.*)(?:ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$/i,
  /^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$/i,
];
function stripByRegex(query: string): string {
  let q = query;
  for (const re of SESSION_REGEXES) {
    const m = re.exec(q);
    if (m) q = (m[1] ?? "") + (m[2] ?? "");
  }
  return q;
}

describe("archive properties (fast-check, fixed seed)", () => {
  it("unescapeRepeatedly equals the round-by-round fixpoint", () => {
    let multiRound = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("%", "2", "5", "3", "a", "F", "%25", "%32", "x"), { maxLength: 16 }),
        (parts) => {
          const bytes = [...Buffer.from(parts.join(""), "latin1")];
          let current = bytes;
          let rounds = 0;
          for (;;) {
            const next = decodeOnce(current);
            if (next.length === current.length) break;
            current = next;
            rounds++;
          }
          if (rounds > 1) multiRound++;
          assert.deepEqual([...unescapeRepeatedly(Uint8Array.from(bytes))], current);
        },
      ),
      { seed: SEED, numRuns: 3000 },
    );
    assert.ok(multiRound > 100, `only ${multiRound} inputs needed more than one round`);
  });

  it("minimalEscape equals the byte-level decode-repeatedly-then-escape-once", () => {
    // minimalEscape settles ASCII text whose escapes cannot cascade in one pass over the string;
    // the reference is the byte path every input could take.
    let changedOnePass = 0;
    let cascading = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            "%",
            "%2",
            "%25",
            "%C3%A9",
            "%c3%a9",
            "%20",
            "%26",
            "%2F",
            "%41",
            "%7e",
            "%zz",
            "#",
            " ",
            "a",
            "F",
            "/",
            "é",
            "&",
          ),
          { maxLength: 12 },
        ),
        (parts) => {
          const text = parts.join("");
          const expected = escapeOnce(unescapeRepeatedly(new TextEncoder().encode(text)));
          assert.equal(minimalEscape(text), expected, text);
          if (/%(?:25|[34][0-9a-fA-F]|6[1-6])/.test(text)) cascading++;
          else if (expected !== text && !/[^\p{ASCII}]/u.test(text) && text.includes("%")) changedOnePass++;
        },
      ),
      { seed: SEED, numRuns: 3000 },
    );
    assert.ok(changedOnePass > 300, `only ${changedOnePass} one-pass inputs were rewritten`);
    assert.ok(cascading > 300, `only ${cascading} inputs could cascade`);
  });

  it("alphaReorderQuery equals a plain sort of the arguments by name, bare first, then value", () => {
    const reference = (query: string) => {
      if (!query.includes("&")) return query;
      const key = (arg: string) => {
        const eq = arg.indexOf("=");
        return eq === -1 ? [arg, 0, ""] : [arg.slice(0, eq), 1, arg.slice(eq + 1)];
      };
      return query
        .split("&")
        .map((arg) => ({ arg, k: key(arg) as [string, number, string] }))
        .sort((x, y) =>
          x.k[0] !== y.k[0]
            ? x.k[0] < y.k[0]
              ? -1
              : 1
            : x.k[1] !== y.k[1]
              ? x.k[1] - y.k[1]
              : x.k[2] < y.k[2]
                ? -1
                : x.k[2] > y.k[2]
                  ? 1
                  : 0,
        )
        .map((x) => x.arg)
        .join("&");
    };
    let long = 0;
    let reordered = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom("a", "a=", "a=1", "a=10", "a=2", "ab", "b=1", "B", "", "=", "=x", "a==", "b=%20"),
          {
            maxLength: 40,
            size: "max",
          },
        ),
        (args) => {
          const query = args.join("&");
          const got = alphaReorderQuery(query);
          if (got !== query) reordered++;
          if (args.length > 16) long++;
          assert.equal(got, reference(query), query);
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
    assert.ok(long > 300 && reordered > 300, `long ${long}, reordered ${reordered}`);
  });

  it("normalizeArchivePath equals surt's segment walk", () => {
    const reference = (path: string) => {
      if (path === "") return "/";
      const kept: string[] = [];
      for (const segment of path.split("/").slice(1)) {
        if (segment === ".") continue;
        if (segment === "..") {
          if (kept.length > 0) kept.pop();
          else kept.push(segment);
        } else kept.push(segment);
      }
      const last = kept.pop();
      return `/${kept
        .filter((s) => s !== "")
        .map((s) => `${s}/`)
        .join("")}${last ?? ""}`;
    };
    let unchanged = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom("/", "a", ".", "..", ".a", "b."), { maxLength: 10 }), (parts) => {
        const path = parts.join("");
        const got = normalizeArchivePath(path);
        if (got === path) unchanged++;
        assert.equal(got, reference(path), path);
      }),
      { seed: SEED, numRuns: 3000 },
    );
    assert.ok(unchanged > 100, `only ${unchanged} paths came back unchanged`);
  });

  it("the key read from a normalized URL's text equals the general steps' key", () => {
    const general = (text: string, keepWww: boolean) => {
      const parts = parseArchiveUrl(text);
      assert.ok(parts !== undefined);
      return formatSurt(iaCanonicalize(googleCanonicalize(parts), keepWww));
    };
    let fast = 0;
    let declined = 0;
    let rawFast = 0;
    fc.assert(
      fc.property(
        fc.constantFrom("http://", "https://", "HTTP://", ""),
        fc.constantFrom(
          "www.Example.com",
          "www2.a-b.org",
          "wwwx.test",
          "1.2.3.4",
          "[::1]",
          "u:p@x.test",
          "a_b.test",
          "x.test.",
          "b\u00fccher.test",
        ),
        fc.constantFrom("", ":80", ":443", ":0", ":8080", ":65535"),
        fc.array(
          fc.constantFrom(
            "/",
            "A",
            ".",
            "..",
            "%2e",
            "%41",
            "%2F",
            "%25",
            "%c3%a9",
            " ",
            "x.aspx",
            "(S(abcdefghijklmnopqrstuvwx))",
            "|",
            "~",
          ),
          { maxLength: 6 },
        ),
        fc.array(
          fc.constantFrom(
            "?",
            "&",
            "=",
            "B=2",
            "a=1",
            "a",
            "%26",
            "%2525",
            "sid=0123456789abcdef0123456789abcdef",
            "#f",
          ),
          { maxLength: 6 },
        ),
        fc.boolean(),
        (scheme, host, port, path, query, keepWww) => {
          const input = `${scheme}${host}${port}/${path.join("")}${query.join("")}`;
          // Unnormalized text too: whatever the function accepts, it keys as the general steps do.
          const raw = surtOfCanonical(input, keepWww);
          if (raw !== undefined) {
            rawFast++;
            assert.equal(raw, general(input, keepWww), input);
          }
          for (const preset of ["rfc3986", "identity"] as const) {
            let text: string;
            try {
              text = normalize(input, { preset });
            } catch {
              continue;
            }
            const key = surtOfCanonical(text, keepWww);
            if (key === undefined) {
              declined++;
              continue;
            }
            fast++;
            assert.equal(key, general(text, keepWww), text);
            // Without a scheme, "host:port" reads as a scheme to surt(), which keys it verbatim.
            if (scheme !== "") assert.equal(surt(input, { preset, keepWww }), key, input);
          }
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
    assert.ok(
      fast > 1000 && declined > 100 && rawFast > 100,
      `fast ${fast}, declined ${declined}, raw ${rawFast}`,
    );
  });

  it("the session-id scanners give what the Archive's regexes give", () => {
    const id32 = "0123456789abcdefABCDEF0123456789";
    const piece = fc.constantFrom(
      "a=1",
      "&",
      `jsessionid=${id32}`,
      `PHPSESSID=${id32}`,
      `sid=${id32}`,
      "sid=short",
      "ASPSESSIONIDabcdefgh=abcdefghijklmnopqrstuvwx",
      "cfid=1",
      "cftoken=2",
      "cfid=",
      "x",
    );
    let stripped = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const query = pieces.join("");
        const expected = stripByRegex(query);
        if (expected !== query) stripped++;
        assert.equal(stripQuerySessionId(query), expected);
      }),
      { seed: SEED, numRuns: 3000 },
    );
    assert.ok(stripped > 300, `only ${stripped} queries had an id to strip`);
  });

  it("spellings of one resource share one key", () => {
    const counts = {
      www: 0,
      port: 0,
      case: 0,
      slash: 0,
      order: 0,
      escape: 0,
      fragment: 0,
      userinfo: 0,
      https: 0,
    };
    const label = fc.constantFrom("example", "a-b", "shop", "news", "xn--mnchen-3ya", "b2");
    const segment = fc.constantFrom("a", "index.html", "x_y", "~u", "p-1", "2024");
    const param = fc.tuple(fc.constantFrom("a", "b", "id", "q", "page"), fc.constantFrom("1", "x", "", "z9"));
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 3 }),
        fc.constantFrom("com", "org", "de"),
        fc.array(segment, { maxLength: 3 }),
        fc.uniqueArray(param, { maxLength: 4, selector: (p) => p[0] }),
        fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
        (labels, tld, segments, params, flip) => {
          const host = `${labels.join(".")}.${tld}`;
          const path = `/${segments.join("/")}`;
          const query = params.map(([k, v]) => `${k}=${v}`).join("&");
          const base = `http://${host}${path}${query ? `?${query}` : ""}`;
          let variantHost = host;
          let variantPath = path;
          let variantQuery = params;
          let scheme = "http";
          let prefix = "";
          let port = "";
          let suffix = "";
          if (flip[0]) {
            variantHost = `www.${variantHost}`;
            counts.www++;
          }
          if (flip[1]) {
            port = ":80";
            counts.port++;
          }
          if (flip[2]) {
            variantHost = variantHost.toUpperCase();
            counts.case++;
          }
          if (flip[3] && path !== "/") {
            variantPath = `${variantPath}/`;
            counts.slash++;
          }
          if (flip[4] && params.length > 1) {
            variantQuery = [...params].reverse();
            counts.order++;
          }
          if (flip[5] && variantPath.includes("a")) {
            variantPath = variantPath.replace("a", "%61");
            counts.escape++;
          }
          if (flip[6]) {
            suffix = "#section-2";
            counts.fragment++;
          }
          if (flip[7]) {
            prefix = "user:secret@";
            counts.userinfo++;
          }
          if (flip[8] && !flip[1]) {
            scheme = "https";
            counts.https++;
          }
          const q = variantQuery.map(([k, v]) => `${k}=${v}`).join("&");
          const variant = `${scheme}://${prefix}${variantHost}${port}${variantPath}${q ? `?${q}` : ""}${suffix}`;
          assert.equal(surt(variant), surt(base), variant);
          assert.equal(surt(variant, { preset: "none" }), surt(base), `${variant} (preset none)`);
          // surt is a fixpoint of its own canonical URL: the key does not move when re-derived.
          assert.equal(
            surt(
              surt(base, { preset: "none" }).replace(
                /^(.*?)\)/,
                (_, h: string) => `http://${h.split(",").reverse().join(".")}`,
              ),
            ),
            surt(base),
          );
        },
      ),
      { seed: SEED, numRuns: 1500 },
    );
    for (const [branch, n] of Object.entries(counts))
      assert.ok(n > 100, `branch ${branch} reached only ${n} times`);
  });
});
