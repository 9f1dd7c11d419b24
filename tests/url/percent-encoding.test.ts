import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Component, normalizePercentEncoding } from "../../src/url/percent-encoding.js";

// The reference: RFC 3986 §6.2.2.1–2 one character at a time, written for clarity, not speed.
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RAW: Record<Component, RegExp> = {
  path: /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/,
  query: /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/,
  fragment: /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/,
  userinfo: /^[A-Za-z0-9\-._~!$&'()*+,;=:]$/,
};
function reference(s: string, component: Component): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    const triplet = /^%[0-9A-Fa-f]{2}/.exec(s.slice(i));
    if (triplet !== null) {
      const decoded = String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 3), 16));
      out += UNRESERVED.test(decoded) ? decoded : triplet[0].toUpperCase();
      i += 2;
    } else if (ch === "%") out += "%25";
    else if (RAW[component].test(ch)) out += ch;
    else {
      const cp = s.codePointAt(i) as number;
      if (cp > 0xffff) i++;
      for (const b of new TextEncoder().encode(String.fromCodePoint(cp)))
        out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}

describe("normalizePercentEncoding (RFC 3986 §6.2.2)", () => {
  it("returns the same string when nothing changes", () => {
    const s = "/a/b-c_d~e.f!$&'()*+,;=:@";
    assert.equal(normalizePercentEncoding(s, "path"), s);
  });
  it("uppercases the hex of escapes it keeps", () => {
    assert.equal(normalizePercentEncoding("/a%2fb%3a", "path"), "/a%2Fb%3A");
  });
  it("decodes escapes of unreserved characters only", () => {
    assert.equal(normalizePercentEncoding("%41%7a%30%2D%2e%5f%7E", "path"), "Az0-._~");
    assert.equal(normalizePercentEncoding("%2F%3F%23%26%25%3D%2B", "query"), "%2F%3F%23%26%25%3D%2B");
  });
  it("encodes a % that starts no escape", () => {
    assert.equal(normalizePercentEncoding("100%", "path"), "100%25");
    assert.equal(normalizePercentEncoding("%zz%4", "path"), "%25zz%254");
  });
  it("encodes characters the component does not allow raw", () => {
    assert.equal(
      normalizePercentEncoding('a"b<c>d[e]f^g`h{i}j|k\\l', "path"),
      "a%22b%3Cc%3Ed%5Be%5Df%5Eg%60h%7Bi%7Dj%7Ck%5Cl",
    );
    assert.equal(normalizePercentEncoding("a?b", "path"), "a%3Fb");
    assert.equal(normalizePercentEncoding("a?b/c", "query"), "a?b/c");
    assert.equal(normalizePercentEncoding("u/s@r", "userinfo"), "u%2Fs%40r");
  });
  it("encodes raw non-ASCII as UTF-8", () => {
    assert.equal(normalizePercentEncoding("é😀", "fragment"), "%C3%A9%F0%9F%98%80");
  });
  it("encodes raw text as the WHATWG parser does: each UTF-8 length, and a surrogate outside a pair", () => {
    // The canonical fast path repairs links on their text with it, in place of the parse.
    const points = ["\u0080", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\uffff", "\u{10000}", "\u{10ffff}"];
    const lone = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud800\ud800\udc00", "\udc00\ud800"];
    for (const text of [...points, ...lone, " ", "\u0001", "\u007f"]) {
      // Between letters: the parser trims blanks and controls at the end of its input.
      const parsed = new URL(`http://a.test/x${text}y?x${text}y`);
      assert.equal(normalizePercentEncoding(`/x${text}y`, "path"), parsed.pathname, JSON.stringify(text));
      assert.equal(
        normalizePercentEncoding(`x${text}y`, "query"),
        parsed.search.slice(1),
        JSON.stringify(text),
      );
    }
  });
  it("is idempotent", () => {
    for (const s of ["%2525", "a%2fb%7e", "100%", "x|y", "%C3%A9"]) {
      const once = normalizePercentEncoding(s, "query");
      assert.equal(normalizePercentEncoding(once, "query"), once, s);
    }
  });
  it("agrees with a character-at-a-time reference (fast-check, fixed seed)", () => {
    const alphabet = fc.constantFrom(
      ...[..."aZ09-._~!$&'()*+,;=:@/?#[]|^`{}\\\" <>%"],
      ...[
        "%41",
        "%7e",
        "%2f",
        "%2F",
        "%3a",
        "%25",
        "%zz",
        "%4",
        "é",
        "😀",
        "\u07ff",
        "\u0800",
        "\ud800",
        "\udc00",
      ],
    );
    // Mostly clean text too: the native pre-check returns those at once, and escapes already in
    // normal form must stay without a rebuilt string (both branches counted below).
    const clean = fc.constantFrom(...[..."aZ09-._~!$&'()*+,;=:@/?"], "%2F", "%3A", "%C3%A9");
    const reached = { unchanged: 0, noWork: 0, onlyNormalEscapes: 0, decoded: 0, keptEscape: 0, encoded: 0 };
    fc.assert(
      fc.property(
        fc
          .oneof(fc.array(alphabet, { maxLength: 24 }), fc.array(clean, { maxLength: 24 }))
          .map((chars) => chars.join("")),
        fc.constantFrom<Component>("path", "query", "fragment", "userinfo"),
        (input, component) => {
          const got = normalizePercentEncoding(input, component);
          assert.equal(got, reference(input, component), `${component}: ${JSON.stringify(input)}`);
          if (got === input) reached.unchanged++;
          if (got === input && [...input].every((ch) => RAW[component].test(ch))) reached.noWork++;
          if (got === input && input.includes("%")) reached.onlyNormalEscapes++;
          if (/%(?:4[1-9A-Fa-f]|[67][0-9A-Fa-f]|3[0-9])/.test(input)) reached.decoded++;
          if (/%2[Ff]/.test(input)) reached.keptEscape++;
          if (/[|^`{}\\]/.test(input)) reached.encoded++;
        },
      ),
      { seed: 20261203, numRuns: 3000 },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > 50, `${branch}: only ${count} runs`);
  });
});
