import type { CacheEntry } from "../../src/cache/cache.js";
import type { Resolution } from "../../src/resolve/types.js";

/**
 * A realistic resolution: two redirects then a canonical link, the headers a site sends, ~1 KB
 * as JSON (the size the benchmark and the contract suite store).
 */
export function sampleResolution(n = 0): Resolution {
  return {
    url: `https://www.example.test/articles/${n}/canonical-slug-for-this-article`,
    original: `http://bit.test/x${n}?utm_source=news&utm_medium=email&ref=ünïcødé`,
    source: "canonical-link",
    chain: [
      {
        url: `http://bit.test/x${n}?utm_source=news&utm_medium=email`,
        via: "initial",
        method: "HEAD",
        status: 301,
      },
      { url: `https://example.test/a/${n}?utm_source=news`, via: "redirect", method: "HEAD", status: 302 },
      { url: `https://www.example.test/articles/${n}?amp=1`, via: "redirect", method: "GET", status: 200 },
      {
        url: `https://www.example.test/articles/${n}/canonical-slug-for-this-article`,
        via: "canonical-link",
        method: "GET",
        status: 200,
      },
    ],
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "public, max-age=3600",
      date: "Fri, 04 Dec 2026 12:00:00 GMT",
      etag: '"5f2c-1a2b3c4d5e6f"',
      "last-modified": "Thu, 03 Dec 2026 08:30:00 GMT",
      server: "nginx",
      vary: "Accept-Encoding",
      link: `<https://www.example.test/articles/${n}/canonical-slug-for-this-article>; rel="canonical"`,
    },
    ruleApplied: "example-v1",
    paramsStripped: ["utm_source", "utm_medium"],
    verified: true,
    durationMs: 183.25,
    cached: false,
    stale: false,
  };
}

/** A success entry fresh for `freshMs` from now. */
export function sampleEntry(n = 0, freshMs = 3_600_000, now = Date.now()): CacheEntry {
  return { outcome: { ok: true, result: sampleResolution(n) }, storedAt: now, freshUntil: now + freshMs };
}

/** A failure entry fresh for `freshMs` from now. */
export function errorEntry(code = "http-status", freshMs = 3_600_000, now = Date.now()): CacheEntry {
  return {
    outcome: { ok: false, error: { code, message: `404 Not Found: https://gone.test/${code}` } },
    storedAt: now,
    freshUntil: now + freshMs,
  };
}
