import fc from "fast-check";

const schemes = fc.constantFrom("http", "https", "HTTP", "HtTpS", "");
const labels = fc.constantFrom(
  "example",
  "Example",
  "xn--mnchen-3ya",
  "münchen",
  "www",
  "a-b",
  "youtube",
  "twitter",
  "github",
  "amazon",
  "reddit",
  "B\u00dccher",
  "0x7f",
  "127",
  "1",
);
const tlds = fc.constantFrom("com", "COM", "de", "test", "co.uk", "org.", "1");
const host = fc
  .tuple(fc.array(labels, { minLength: 1, maxLength: 3 }), tlds)
  .map(([ls, tld]) => `${ls.join(".")}.${tld}`);
const port = fc.constantFrom("", ":80", ":443", ":8080", ":0");
const segment = fc.constantFrom(
  "a",
  "B",
  ".",
  "..",
  "%2e",
  "%7Euser",
  "%2F",
  "%41",
  "x y",
  "é",
  "",
  "a|b",
  "%zz",
  "100%",
  "watch",
  "status",
  "dp",
  "p",
  "c%3Ad",
  "%25",
  "%2525",
);
const path = fc.array(segment, { maxLength: 5 }).map((s) => (s.length === 0 ? "" : `/${s.join("/")}`));
const name = fc.constantFrom(
  "a",
  "b",
  "v",
  "q",
  "utm_source",
  "UTM_Medium",
  "gclid",
  "fbclid",
  "ref",
  "si",
  "t",
  "id",
  "x%26y",
  "k%5Fz",
  "",
);
const value = fc.constantFrom("", "1", "2", "a%26b", "%2525", "x=y", "é", "a+b", "%7e");
/** A query parameter as written, possibly without `=`. */
export const param: fc.Arbitrary<string> = fc
  .tuple(name, fc.option(value))
  .map(([n, v]) => (v === null ? n : `${n}=${v}`));
const fragment = fc.constantFrom("", "#", "#top", "#L10", "#L10-L20", "#a%20b");

/** Realistic URL-ish strings: mixed case, ports, dot segments, escapes, tracking, fragments, IDN. */
export const urlish: fc.Arbitrary<string> = fc
  .tuple(
    schemes,
    host,
    port,
    path,
    fc.array(param, { maxLength: 5 }),
    fc.boolean(),
    fragment,
    fc.constantFrom("", " ", "\t", "\u00a0"),
  )
  .map(
    ([s, h, p, pa, q, emptyQ, f, pad]) =>
      `${pad}${s === "" ? "" : `${s}://`}${h}${p}${pa}${q.length > 0 ? `?${q.join("&")}` : emptyQ ? "?" : ""}${f}${pad}`,
  );

/** An absolute URL with a query of at least two parameters, returned as base and parameter list. */
export const urlWithParams: fc.Arbitrary<{ base: string; params: string[] }> = fc
  .tuple(
    schemes.filter((s) => s !== ""),
    host,
    path,
    fc.array(param, { minLength: 2, maxLength: 6 }),
  )
  .map(([s, h, p, params]) => ({ base: `${s}://${h}${p}`, params }));

// --- Hostile corners ------------------------------------------------------------------------------
// Where normalizers lose idempotence: a host whose dots are escaped or whose labels read as numbers
// (a later parse may turn it into an IPv4 address), trailing dots, IP literals; path segments with
// brackets and dots the encoder rewrites next to dot segments; wrappers inside wrappers.

const hostileLabel = fc.constantFrom(
  "2130706433",
  "127",
  "0",
  "1",
  "0x7f",
  "0X7F",
  "0177",
  "08",
  "4294967295",
  "4294967296",
  "999",
  "0x",
  "%31%32%37",
  "%30x7f",
  "a%2eb",
  "xn--nxasmq6b",
  "EXAMPLE",
  "münchen",
  "a-b",
  "test",
);
const hostDot = fc.constantFrom(".", ".", ".", "%2E", "%2e", "。");
const hostTail = fc.constantFrom("", "", "", ".", "..", "%2E", "%2E%2E", ".%2e");
/** Hosts made to look like numbers or addresses, with escaped and trailing dots, and IP literals. */
export const hostileHost: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.array(fc.tuple(hostileLabel, hostDot), { minLength: 0, maxLength: 4 }),
        hostileLabel,
        hostTail,
      )
      .map(([pairs, last, tail]) => `${pairs.map(([l, d]) => `${l}${d}`).join("")}${last}${tail}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "[::1]",
      "[::FFFF:127.0.0.1]",
      "[0:0:0:0:0:0:0:1]",
      "[fe80::1%25eth0]",
      "127.0.0.1",
      "127.1",
      "0x7f.0.0.1",
      "1.2.3.4.",
      "01.02.03.04",
      "256.256.256.256",
      "1.2.3.4.5",
      "0x100000000",
    ),
  },
);

const hostileSegment = fc.constantFrom(
  ".",
  "..",
  "%2e",
  "%2E%2E",
  ".%2e",
  "%2e.",
  ".[::1]",
  "[::1]",
  "[",
  "]",
  "[a]",
  "a]b[",
  "%5B",
  "%5b::1%5D",
  "a.",
  ".a",
  "..a",
  "a..",
  "..;",
  "..%2F",
  "%2F..",
  "a",
  "b",
  "é",
  "%",
  "%2",
  "%zz",
  "~",
  "a;b",
  "a:b",
  "@",
  "x y",
  "%00",
  "\\",
  "|",
);
/** A path of hostile segments, sometimes with a trailing slash. */
export const hostilePath: fc.Arbitrary<string> = fc
  .tuple(fc.array(hostileSegment, { maxLength: 7 }), fc.boolean())
  .map(([s, slash]) => `/${s.join("/")}${slash && s.length > 0 ? "/" : ""}`);

/** A URL with a hostile host or path (or both), ports, queries and fragments. */
export const hostileUrl: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom("http://", "https://", "HTTP://", ""),
    fc.oneof(hostileHost, host),
    port,
    fc.oneof(hostilePath, path),
    fc.array(param, { maxLength: 3 }),
    fragment,
  )
  .map(([s, h, p, pa, q, f]) => `${s}${h}${p}${pa}${q.length > 0 ? `?${q.join("&")}` : ""}${f}`);

const wrapperKind = fc.constantFrom("google-url", "google-amp", "facebook", "wayback", "google-url-url");
function wrap(kind: string, inner: string): string {
  const bare = inner.replace(/^https?:\/\//i, "");
  switch (kind) {
    case "google-url":
      return `https://www.google.com/url?q=${encodeURIComponent(inner)}`;
    case "google-url-url":
      return `https://google.com/url?sa=t&url=${encodeURIComponent(inner)}`;
    case "google-amp":
      return `https://www.google.com/amp/s/${bare}`;
    case "facebook":
      return `https://l.facebook.com/l.php?u=${encodeURIComponent(inner)}&h=AT0`;
    default:
      return `https://web.archive.org/web/20200101000000/${inner}`;
  }
}

/** A link inside 0 to 12 wrappers of the built-in unwrappers' kinds, any mix: `depth` is how many. */
export const nestedWrappers: fc.Arbitrary<{ url: string; depth: number }> = fc
  .tuple(fc.array(wrapperKind, { maxLength: 12 }), fc.oneof(hostileUrl, urlish))
  .filter(([, inner]) => /^https?:\/\//i.test(inner.trim()))
  .map(([kinds, inner]) => ({ url: kinds.reduce((u, k) => wrap(k, u), inner.trim()), depth: kinds.length }));

// --- Text spelled nearly as the parser spells it ---------------------------------------------------
// canonicalFromText reads a link before any parse when its scheme and host are written as the
// parser writes them: these strings are that form with one thing off (case, a port, userinfo, a
// numeric or punycode label, an empty label, a blank, a character the parser encodes, a dot
// segment, a hidden route), so both its answers and its refusals are reached.

// Mostly clean, now and then one thing off: with the off values alone, few strings would be clean.
const cleanOrOff = (clean: string[], off: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...clean) },
    { weight: 1, arbitrary: fc.constantFrom(...off) },
  );
const nearScheme = cleanOrOff(
  ["http://", "https://"],
  ["HTTP://", "Https://", "hTTPs://", "http:/", "https:", "htt://", " https://"],
);
const nearLabel = cleanOrOff(
  ["example", "a-b", "www", "x1", "m", "youtube", "github", "x", "reddit", "google", "amazon"],
  ["Example", "xn--mnchen-3ya", "xn--zz", "1", "0x7f", "", "a_b", "m\u00fcnchen", "a%2e"],
);
const nearHost = fc
  .tuple(
    fc.array(nearLabel, { minLength: 0, maxLength: 3 }),
    cleanOrOff(["com", "test", "de"], ["com.", "1", "0x1", "xn--p1ai", "COM"]),
  )
  .map(([ls, tld]) => [...ls, tld].join("."));
const nearAuthorityTail = cleanOrOff(
  [""],
  [
    ":80",
    ":443",
    ":8080",
    ":",
    "@",
    "\\",
    "u@",
    ":0080",
    ":00443",
    ":0",
    ":65535",
    ":65536",
    ":99999",
    ":1:2",
  ],
);
const nearSegment = cleanOrOff(
  [
    "a",
    "b",
    "watch",
    "status",
    "dp",
    "url",
    "p",
    "123",
    "~user",
    "a;jsessionid=1",
    "%7e",
    "%2F",
    ".well-known",
  ],
  [
    "",
    ".",
    "..",
    "%2e",
    "%2E",
    ".%2e",
    "%2e%2E",
    "%41",
    "%c3%a9",
    "%",
    "%zz",
    "a%2",
    'a"b',
    "<x>",
    "a b",
    "a'b",
    "a\tb",
    "^",
    "|",
    "`",
    "{x}",
    "[1]",
    "\\",
    "é",
    "a\u007fb",
  ],
);
const nearParam = cleanOrOff(
  [
    "a=1",
    "b=2",
    "a",
    "a=",
    "v=abc",
    "utm_source=x",
    "gclid=1",
    "si=abc",
    "q=%7e",
    "q=%2F",
    "sid=1",
    "url=https%3A%2F%2Fx.test%2F",
  ],
  [
    "'=1",
    "q=it's",
    "q=a b",
    "",
    "z=\t",
    "PHPSESSID=0123456789abcdefghijklemopqrstuv",
    "x=%2525",
    "q=a|b",
    "q=%7E",
    "q=<",
    'q="',
    "q=%",
    "q={}",
    "q=%c3%a9",
    "Q=%2e",
  ],
);
const nearFragment = fc.constantFrom("", "", "#", "#x", "#/r", "#!b", "#\t/r", "# x", "#/", "#x y");
/** Strings spelled as the WHATWG parser would spell an http(s) URL, or with one thing off. */
export const nearSerialized: fc.Arbitrary<string> = fc
  .tuple(
    nearScheme,
    nearHost,
    nearAuthorityTail,
    fc.array(nearSegment, { maxLength: 4 }),
    fc.boolean(),
    fc.option(fc.array(nearParam, { maxLength: 4 })),
    nearFragment,
    fc.constantFrom("", "", "", " ", "\n"),
  )
  .map(
    ([scheme, host, tail, segments, slash, params, fragment, pad]) =>
      `${scheme}${host}${tail}${segments.length > 0 ? `/${segments.join("/")}` : ""}${slash ? "/" : ""}${params === null ? "" : `?${params.join("&")}`}${fragment}${pad}`,
  );
