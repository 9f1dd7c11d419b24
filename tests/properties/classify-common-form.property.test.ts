import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { classify } from "../../src/classify/classify.js";
import { classifyFully } from "../../src/classify/classify-fully.js";
import { classifyCommonForm } from "../../src/classify/common-form.js";
import { anyInput, urlish as classifyUrlish } from "../classify/arbitraries.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { hostileUrl, urlish } from "../helpers/url-arbitraries.js";

// classify() answers a string from the common-form scan (src/classify/common-form.ts) when the
// scan proves the full path has nothing else to read in it; classifyFully() is that full path, so
// it is the oracle. Inputs: near-misses of the common form (every piece the scan must refuse sits
// next to pieces it accepts, with hostile characters spliced in anywhere), the classify room's
// and the URL helpers' hostile generators, and every short authority over a steering alphabet.

const SEED = 20261205;
const RUNS = fuzzRuns(20_000);

// Each piece of `scheme://host:port/path?query#fragment` comes clean (a form the scan must take)
// or hostile (something the full path reads apart, or a near-miss that is still clean).
const cleanScheme = fc.constantFrom(
  "https",
  "https",
  "http",
  "HTTPS",
  "HtTp",
  "ws",
  "wss",
  "ftp",
  "file",
  "x",
  "a1+.-",
);
const hostileScheme = fc.constantFrom(
  "javascript",
  "JavaScript",
  "data",
  "vbscript",
  "mailto",
  "non-special",
  "1a",
  "+a",
  "h t",
  "\u0130ttp",
  "",
);
const hostileSeparator = fc.constantFrom(":/", ":", "//", ":///", ":\\\\", ":/\\", ":\\/", ": //", ":/ /");
const cleanLabel = fc.stringMatching(/^[a-zA-Z0-9-]{1,8}$/);
const hostileLabel = fc.constantFrom(
  "",
  "%41",
  "%C3%A9",
  "%25",
  "\u00e9",
  "\u0130",
  "\u212a",
  "\u0430",
  "a_b",
  "a b",
  "a~b",
  "user@a",
  "u:p@a",
  "@",
  "[::1]",
  "[fe80::1%25en0]",
  "[127.0.0.1]",
  "[",
  "]",
  "a\tb",
  "a\\b",
  "a\u0000b",
  "<>",
  '"',
  "!$&'()*+,;=",
);
const cleanHost = fc.array(cleanLabel, { minLength: 1, maxLength: 4 }).map((labels) => labels.join("."));
const hostileHost = fc
  .tuple(fc.array(cleanLabel, { maxLength: 3 }), hostileLabel, fc.nat())
  .map(([labels, bad, at]) => {
    const i = at % (labels.length + 1);
    return [...labels.slice(0, i), bad, ...labels.slice(i)].join(".");
  });
const cleanPort = fc.constantFrom("", "", "", ":443", ":8080", ":", ":0", ":65536");
const hostilePort = fc.constantFrom(":8o", ":1:2", "::80", ":+1", ": 1", ":\u0661", ":1a");
const cleanPiece = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-zA-Z0-9._~=&-]{0,6}$/) },
  {
    weight: 4,
    arbitrary: fc.constantFrom("/", "/a", "/x/y", "?", "?q=1", "&b=2", "#", "#f", ";p", ":", "@", "+"),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "%41",
      "%2F",
      "%e9",
      "?%zz",
      "?%4",
      "?%",
      "\u00e9",
      "\ud83d\ude00",
      "\ud800",
      "|",
      "^",
      "[",
      "]",
      " x",
    ),
  },
);
const hostilePiece = fc.constantFrom(
  "%",
  "%4",
  "%zz",
  "%4g",
  "%%41",
  "#%zz",
  "#%4",
  "\t",
  "\n",
  "\r",
  "\\",
  "\u0000",
  "\u001f",
  "\u007f",
);
// Most tails start where an authority ends; some run on into it (letters after a port).
const tailStart = fc.constantFrom("/", "/", "?", "#", "", "");
const cleanTail = fc
  .tuple(tailStart, fc.array(cleanPiece, { maxLength: 6 }))
  .map(([start, pieces]) => start + pieces.join(""));
const hostileTail = fc
  .tuple(tailStart, fc.array(cleanPiece, { maxLength: 4 }), hostilePiece, fc.nat())
  .map(([start, pieces, bad, at]) => {
    const i = at % (pieces.length + 1);
    return start + [...pieces.slice(0, i), bad, ...pieces.slice(i)].join("");
  });
const hostileEdge = fc.constantFrom(
  " ",
  "\u00a0",
  "\t",
  "\n",
  "\u3000",
  "\u2028",
  "\u0000",
  "\ufeff",
  "\u0085",
);
const spliced = fc.constantFrom(
  "\t",
  "\n",
  "\\",
  "\u0000",
  "\u007f",
  " ",
  "\u00a0",
  "@",
  "%",
  ":",
  "/",
  "?",
  "#",
  "[",
  "A",
  "\u00e9",
);

/**
 * Strings shaped like `scheme://host:port/path?query#fragment`: half of them clean, the others with
 * one piece hostile (the scheme, separator, host, port, tail, an edge) or one character spliced in
 * anywhere (a tab inside the scheme, a `\` in the host, an `@` before it...).
 */
const nearCommonForm: fc.Arbitrary<string> = fc
  .tuple(
    fc.tuple(cleanScheme, cleanHost, cleanPort, cleanTail),
    fc.nat(13),
    fc.tuple(hostileScheme, hostileSeparator, hostileHost, hostilePort, hostileTail, hostileEdge),
    fc.tuple(spliced, fc.nat()),
  )
  .map(([[s, h, p, t], which, [badS, badSep, badH, badP, badT, badE], [ch, at]]) => {
    const parts = ["", s, "://", h, p, t, ""];
    if (which === 7) parts[0] = badE;
    else if (which === 8) parts[6] = badE;
    else if (which === 9) parts[1] = badS;
    else if (which === 10) parts[2] = badSep;
    else if (which === 11) parts[3] = badH;
    else if (which === 12) parts[4] = badP;
    else if (which === 13) parts[5] = badT;
    const raw = parts.join("");
    if (which !== 6) return raw;
    const i = at % (raw.length + 1);
    return raw.slice(0, i) + ch + raw.slice(i);
  });

describe("classify()'s common-form path (fast-check, fixed seed)", () => {
  it("answers exactly as the full path, over near-misses and the hostile generators", () => {
    const taken = {
      all: 0,
      port: 0,
      emptyPort: 0,
      upperHost: 0,
      upperScheme: 0,
      otherScheme: 0,
      scriptScheme: 0,
      escape: 0,
      query: 0,
      fragment: 0,
      nonAscii: 0,
    };
    const refused = { all: 0, absolute: 0, otherClass: 0, userInfo: 0, tab: 0, backslash: 0, edge: 0 };
    fc.assert(
      fc.property(
        fc.oneof(
          { weight: 6, arbitrary: nearCommonForm },
          { weight: 1, arbitrary: anyInput },
          { weight: 1, arbitrary: classifyUrlish },
          { weight: 1, arbitrary: hostileUrl },
          { weight: 1, arbitrary: urlish },
        ),
        (raw) => {
          const full = classifyFully(raw);
          assert.deepEqual(classify(raw), full, JSON.stringify(raw));
          const common = classifyCommonForm(raw);
          if (common !== null) {
            assert.deepEqual(common, full, JSON.stringify(raw));
            taken.all++;
            if (full.port !== "") taken.port++;
            if (/^[^/]*\/\/[^/?#]*:([/?#]|$)/.test(raw)) taken.emptyPort++;
            if (/^[^/]*\/\/[^/?#]*[A-Z]/.test(raw)) taken.upperHost++;
            if (/^[^:]*[A-Z]/.test(raw)) taken.upperScheme++;
            if (full.scheme !== "https" && full.scheme !== "http") taken.otherScheme++;
            if (full.scriptScheme) taken.scriptScheme++;
            if (raw.includes("%")) taken.escape++;
            if (raw.includes("?")) taken.query++;
            if (raw.includes("#")) taken.fragment++;
            if (/[^ -~]/.test(raw)) taken.nonAscii++;
          } else {
            refused.all++;
            if (full.class === "absolute") refused.absolute++;
            else refused.otherClass++;
            if (full.hasUserInfo) refused.userInfo++;
            if (full.hasTabOrNewline) refused.tab++;
            if (full.hasBackslash) refused.backslash++;
            if (full.trimmed.length < raw.length && !full.hasTabOrNewline) refused.edge++;
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    // Both answers must be reached often, and each corner of each: a scan never taken proves
    // nothing, and one that refuses only what the full path calls non-absolute is not tested on
    // its near-misses.
    for (const [branch, count] of Object.entries(taken))
      assert.ok(count >= RUNS / 200, `taken.${branch}: ${count} of ${RUNS}`);
    for (const [branch, count] of Object.entries(refused))
      assert.ok(count >= RUNS / 200, `refused.${branch}: ${count} of ${RUNS}`);
    assert.ok(taken.all >= RUNS / 5 && refused.all >= RUNS / 5, JSON.stringify({ taken, refused }));
  });

  it("answers exactly as the full path for every authority of up to 3 characters", () => {
    // Every string `s://` + up to three characters of an alphabet that steers the authority and
    // the rest, after a few schemes: the scan's boundaries (empty host, lone colon, port digits,
    // the first terminator) are where an off-by-one would hide.
    const alphabet = [..."aZ0.-:@/?#%[]\\ \t_", "\u00a0", "\u00e9", "\u0000"];
    const tails = [""];
    for (let len = 1; len <= 3; len++)
      for (const prefix of tails.filter((t) => t.length === len - 1))
        for (const c of alphabet) tails.push(prefix + c);
    let taken = 0;
    let refused = 0;
    for (const head of ["http://", "HTTPS://", "x+y://", "javascript://"]) {
      for (const t of tails) {
        const raw = head + t;
        assert.deepEqual(classify(raw), classifyFully(raw), JSON.stringify(raw));
        if (classifyCommonForm(raw) !== null) taken++;
        else refused++;
      }
    }
    assert.ok(taken > 1_000 && refused > 10_000, `taken ${taken}, refused ${refused}`);
  });
});
