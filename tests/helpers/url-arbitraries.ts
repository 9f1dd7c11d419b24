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
