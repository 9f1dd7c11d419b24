import fc from "fast-check";

// Characters that steer a URL parse, plus letters in both cases, non-ASCII lookalikes, Unicode
// edge space and the controls the preprocessing treats apart. Random strings over this alphabet
// reach every class; plain random Unicode almost never leaves "schemeless-host"/"malformed".
const ALPHABET = [
  ..."aAzZ09.-+_~:/\\@?#%[]!$&'()*,;= <>\"^`{|}",
  "\t",
  "\n",
  "\r",
  "\u0000",
  "\u0001",
  "\u001f",
  "\u007f",
  "\u00a0",
  "\u3000",
  "\u00e9",
  "\u0130",
  "\u212a",
  "\u0430",
  "\ufeff",
  "\ud800",
  "\ud83d\ude00",
];

/**
 * One character from the URL-steering alphabet.
 *
 * @example
 * ```ts
 * fc.sample(urlChar, 3);
 * ```
 */
export const urlChar: fc.Arbitrary<string> = fc.constantFrom(...ALPHABET);

const scheme = fc.constantFrom(
  "http",
  "https",
  "HTTPS",
  "ws",
  "wss",
  "ftp",
  "file",
  "javascript",
  "mailto",
  "non-special",
  "a1+.-",
  "1a",
  "",
);
const separator = fc.constantFrom(":", "://", ":/", ":///", ":\\\\", "//", "\\\\", "/\\", "/", "", ":\\/");
const label = fc.constantFrom(
  "example",
  "EVIL",
  "test",
  "0x7f",
  "127",
  "1",
  "an\u0130me",
  "rutrac\u212Aer",
  "xn--e1a",
  "%41",
  "%C3%A9",
  "%25",
  "a b",
  "",
);
const host = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join(".")),
  fc.constantFrom("[::1]", "[FE80::1%25en0]", "[127.0.0.1]", "[::ffff:1.2.3.4]", "[1:2:3:4:5:6:7:8]", "[::1"),
);
const userinfo = fc.constantFrom(
  "",
  "",
  "",
  "user@",
  "trusted.test@",
  "u:p@",
  "a b@",
  "\u00e9@",
  "%zz@",
  "@",
);
const port = fc.constantFrom("", "", "", ":443", ":65536", ":", ":8o", ":1:2");
const tail = fc.array(fc.oneof(urlChar, fc.constantFrom("/", "/x", "?q=1", "#f", "%2F", "%zz", "\\")), {
  maxLength: 6,
});

/**
 * URL-shaped strings: scheme, separator, userinfo, host, port and a noisy tail, wrapped in random
 * edge characters, so that every class and most facts are reached often.
 *
 * @example
 * ```ts
 * fc.sample(urlish, 3); // e.g. ["https://user@EVIL.test:443/x", "\\\\%41/?q=1", ...]
 * ```
 */
export const urlish: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(urlChar, { maxLength: 2 }),
    scheme,
    separator,
    userinfo,
    host,
    port,
    tail,
    fc.array(urlChar, { maxLength: 2 }),
  )
  .map(
    ([lead, s, sep, u, h, p, t, trail]) => lead.join("") + s + sep + u + h + p + t.join("") + trail.join(""),
  );

/**
 * Random strings over the URL-steering alphabet, and mixed with URL-shaped ones.
 *
 * @example
 * ```ts
 * fc.sample(anyInput, 3);
 * ```
 */
export const anyInput: fc.Arbitrary<string> = fc.oneof(
  urlish,
  fc.array(urlChar, { maxLength: 30 }).map((chars) => chars.join("")),
  fc.string({ unit: "binary", maxLength: 30 }),
);
