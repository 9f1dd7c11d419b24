import { seeded } from "../tests/helpers/seeded.js";

/**
 * A deterministic corpus of realistic URLs: mixed case, ports, dot segments, escapes, tracking
 * parameters, fragments, IDN hosts and rule domains, in the proportions a crawl frontier shows.
 * Seeded, so every run measures the same inputs.
 *
 * @example
 * ```ts
 * const urls = generateCorpus(50_000);
 * ```
 */
export function generateCorpus(size: number, seed = 0x5eed): string[] {
  const next = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const hosts = [
    "example.com",
    "Example.COM",
    "www.example.org",
    "news.site.co.uk",
    "blog.example.net.",
    "shop.example.de",
    "münchen.de",
    "bücher.example",
    "xn--n3h.net",
    "cdn.static.example.io",
    "api.service.test",
    "127.0.0.1",
    "[2001:db8::1]",
  ];
  const ruleLinks = [
    () => `https://youtu.be/${id(11)}?si=${id(16)}`,
    () => `https://www.youtube.com/watch?v=${id(11)}&t=${Math.floor(next() * 600)}s&feature=share`,
    () => `https://m.youtube.com/shorts/${id(11)}`,
    () => `https://twitter.com/${id(8)}/status/${digits(19)}?s=20&t=${id(22)}`,
    () => `https://x.com/${id(6)}/status/${digits(19)}/photo/1`,
    () =>
      `https://www.amazon.com/Some-Product-Name/dp/B0${id(8).toUpperCase()}/ref=sr_1_1?keywords=thing&qid=${digits(10)}&sr=8-1`,
    () => `https://github.com/${id(6)}/${id(8)}/blob/main/src/${id(5)}.ts#L${Math.floor(next() * 300)}`,
    () => `https://www.reddit.com/r/${id(7)}/comments/${id(6)}/${id(12)}/?utm_source=share&utm_medium=web2x`,
    () => `https://instagram.com/p/${id(11)}/?igshid=${id(12)}`,
    () => `https://www.linkedin.com/in/${id(9)}/?miniProfileUrn=${id(20)}`,
  ];
  const segments = [
    "a",
    "b",
    "articles",
    "2026",
    "..",
    ".",
    "%7Euser",
    "x%2Fy",
    "index.html",
    "Caf%c3%a9",
    "é",
    "a b",
    "%41BC",
  ];
  const params = ["id=42", "page=2", "q=a%26b", "sort=desc", "lang=en", "x=%2525", "filter=a|b", "empty="];
  const tracking = [
    "utm_source=newsletter",
    "utm_medium=email",
    "utm_campaign=spring",
    "gclid=Cj0KCQ",
    "fbclid=IwAR3",
    "_ga=2.1234",
    "ref=home",
    "mc_eid=abc",
  ];
  function id(n: number): string {
    const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * 62)];
    return s;
  }
  function digits(n: number): string {
    let s = String(1 + Math.floor(next() * 9));
    for (let i = 1; i < n; i++) s += String(Math.floor(next() * 10));
    return s;
  }
  const out: string[] = [];
  for (let i = 0; i < size; i++) {
    if (next() < 0.25) {
      out.push(pick(ruleLinks)());
      continue;
    }
    const scheme = pick(["http", "https", "https", "HTTPS", "Http"]);
    const port = pick(["", "", "", "", ":80", ":443", ":8080"]);
    let path = "";
    const depth = Math.floor(next() * 5);
    for (let d = 0; d < depth; d++) path += `/${pick(segments)}`;
    if (next() < 0.3) path += "/";
    const query: string[] = [];
    const nq = Math.floor(next() * 5);
    for (let q = 0; q < nq; q++) query.push(next() < 0.4 ? pick(tracking) : pick(params));
    const frag = next() < 0.2 ? `#${pick(["top", "section-2", "L10", "comments"])}` : "";
    out.push(
      `${scheme}://${pick(hosts)}${port}${path}${query.length > 0 ? `?${query.join("&")}` : ""}${frag}`,
    );
  }
  return out;
}
