import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { classify } from "../../src/classify/index.js";
import { explain, normalize } from "../../src/pipeline/normalize.js";
import type { NormalizeOptions } from "../../src/pipeline/normalize-options.js";
import { createServeApp } from "../../src/serve/app.js";
import { isListOption, OPTION_NAMES } from "../../src/serve/option-fields.js";
import { createRequestGate } from "../../src/serve/request-gate.js";
import {
  capabilitiesSchema,
  errorSchema,
  explanationSchema,
  normalizeLineSchema,
  normalizeResultSchema,
  urlFormSchema,
} from "../../src/serve/schemas.js";
import { fromRoot } from "../helpers/paths.js";
import { heldBody, ndjson, ndjsonLines, post } from "./helpers.js";

const assetsDir = fromRoot("dist/serve/playground");

async function errorOf(response: Response, status: number, code: string): Promise<string> {
  assert.equal(response.status, status);
  const body: unknown = await response.json();
  assert.ok(v.is(errorSchema, body), `not an error body: ${JSON.stringify(body)}`);
  assert.equal(body.error.code, code, body.error.message);
  return body.error.message;
}

describe("GET routes", () => {
  const app = createServeApp({ assetsDir });

  it("GET /v1/normalize answers canonical, ruleApplied and paramsStripped, equal to the library's", async () => {
    const url = "https://youtu.be/dQw4w9WgXcQ?si=abc&t=30";
    const response = await app.request(`/v1/normalize?url=${encodeURIComponent(url)}`);
    assert.equal(response.status, 200);
    const body: unknown = await response.json();
    assert.ok(v.is(normalizeResultSchema, body));
    const e = explain(url);
    assert.deepEqual(body, {
      canonical: e.canonical,
      ruleApplied: e.ruleApplied,
      paramsStripped: e.paramsStripped,
    });
    assert.equal(body.ruleApplied, "youtube-v3");
  });

  it("GET /v1/normalize takes every option as a query parameter", async () => {
    const url = "HTTP://Example.COM/b/?z=1&utm_source=x&a=2#frag";
    const query = new URLSearchParams({ url, preset: "rfc3986", sortParams: "true", trailingSlash: "strip" });
    const body = (await (await app.request(`/v1/normalize?${query}`)).json()) as { canonical: string };
    assert.equal(
      body.canonical,
      normalize(url, { preset: "rfc3986", sortParams: true, trailingSlash: "strip" }),
    );
    const keep = new URLSearchParams([
      ["url", "a.example/?utm_source=x&utm_medium=y&ref=1"],
      ["keepParams", "utm_source"],
      ["keepParams", "utm_medium"],
    ]);
    const kept = (await (await app.request(`/v1/normalize?${keep}`)).json()) as { canonical: string };
    assert.equal(
      kept.canonical,
      normalize("a.example/?utm_source=x&utm_medium=y&ref=1", { keepParams: ["utm_source", "utm_medium"] }),
    );
    assert.match(kept.canonical, /utm_medium=y/);
    const noRules = (await (await app.request(`/v1/normalize?url=youtu.be/x1&rules=false`)).json()) as {
      ruleApplied: null;
    };
    assert.equal(noRules.ruleApplied, null);
  });

  it("GET /v1/explain answers the library's Explanation", async () => {
    const url = "https://www.amazon.com/Some-Title/dp/B00TEST123/ref=sr_1_1?tag=x";
    const response = await app.request(`/v1/explain?url=${encodeURIComponent(url)}`);
    const body: unknown = await response.json();
    assert.ok(v.is(explanationSchema, body), JSON.stringify(body));
    assert.deepEqual(body, JSON.parse(JSON.stringify(explain(url))));
  });

  it("GET /v1/classify answers the UrlForm, warnings included", async () => {
    const s = " https://bank.example\\@evil.example/\tx";
    const body: unknown = await (await app.request(`/v1/classify?s=${encodeURIComponent(s)}`)).json();
    assert.ok(v.is(urlFormSchema, body));
    assert.deepEqual(body, classify(s));
    assert.equal(body.hasBackslash, true);
  });

  it("GET /healthz, /v1/capabilities", async () => {
    assert.deepEqual(await (await app.request("/healthz")).json(), { ok: true });
    const caps: unknown = await (await app.request("/v1/capabilities")).json();
    assert.ok(v.is(capabilitiesSchema, caps));
    assert.deepEqual(caps, { resolve: false, tokenRequired: false });
    const withToken = createServeApp({ assetsDir, allowResolve: true, token: "t0k" });
    assert.deepEqual(await (await withToken.request("/v1/capabilities")).json(), {
      resolve: true,
      tokenRequired: true,
    });
  });

  it("GET / serves the page, its script and stylesheet, under a strict CSP", async () => {
    const page = await app.request("/");
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    const html = await page.text();
    assert.match(html, /<script src="\/playground\.js"/);
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1] ?? "");
    assert.ok(refs.length >= 3);
    for (const ref of refs)
      assert.match(ref, /^(\/(?!\/)|data:)/, `the page loads only from its own origin: ${ref}`);
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    const script = await app.request("/playground.js");
    assert.match(script.headers.get("content-type") ?? "", /^text\/javascript/);
    assert.ok((await script.text()).length > 10_000);
    assert.match((await app.request("/playground.css")).headers.get("content-type") ?? "", /^text\/css/);
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
  });

  it("without a built playground, / says so instead of failing silently", async () => {
    const bare = createServeApp({ assetsDir: fromRoot("no-such-dir") });
    await errorOf(await bare.request("/"), 500, "internal");
    assert.equal((await bare.request("/healthz")).status, 200);
  });
});

describe("GET /openapi.json", () => {
  const app = createServeApp({ assetsDir });

  it("is OpenAPI 3.1 with every route and the query options from the same table the service validates with", async () => {
    const doc = (await (await app.request("/openapi.json")).json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          { parameters?: { name: string; schema: unknown }[]; responses: Record<string, unknown> }
        >
      >;
    };
    assert.equal(doc.openapi, "3.1.0");
    for (const [path, method] of [
      ["/v1/normalize", "get"],
      ["/v1/normalize", "post"],
      ["/v1/explain", "get"],
      ["/v1/classify", "get"],
      ["/v1/resolve", "post"],
      ["/openapi.json", "get"],
      ["/", "get"],
      ["/healthz", "get"],
    ] as const) {
      assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
    }
    const params = doc.paths["/v1/normalize"]?.get?.parameters?.map((p) => p.name) ?? [];
    assert.deepEqual(params, ["url", ...OPTION_NAMES]);
    assert.deepEqual(Object.keys(doc.paths["/v1/resolve"]?.post?.responses ?? {}).sort(), [
      "200",
      "400",
      "401",
      "403",
      "413",
      "429",
      "503",
    ]);
    // Every documented parameter, with a value its schema allows, gets the library's own answer:
    // the canonical form when the library takes the option, 400 naming it when the library refuses
    // it; an undocumented parameter is refused.
    const sample: Record<string, string> = {
      preset: "rfc3986",
      trailingSlash: "keep",
      defaultScheme: "https",
      rules: "false",
      trackingParams: "x_*",
      extraTrackingParams: "x_*",
      keepParams: "ref",
    };
    const url = "HTTP://u:p@A.example/x/?x_id=1&b=2&a=1#f";
    let accepted = 0;
    for (const name of OPTION_NAMES) {
      const value = sample[name] ?? "true";
      const given = value === "true" || value === "false" ? value === "true" : value;
      const option = { [name]: isListOption(name) ? [given] : given } as NormalizeOptions;
      let expected: string | TypeError;
      try {
        expected = normalize(url, option);
      } catch (error) {
        assert.ok(error instanceof TypeError, `${name}: ${String(error)}`);
        expected = error;
      }
      const response = await app.request(`/v1/normalize?url=${encodeURIComponent(url)}&${name}=${value}`);
      if (expected instanceof TypeError) {
        assert.match(await errorOf(response, 400, "invalid-option"), new RegExp(name));
      } else {
        assert.equal(response.status, 200, `${name}=${value}: ${await response.clone().text()}`);
        assert.equal(((await response.json()) as { canonical: string }).canonical, expected, name);
        accepted++;
      }
    }
    assert.ok(accepted >= 9, `the library took ${accepted} of the ${OPTION_NAMES.length} options`);
    await errorOf(await app.request("/v1/normalize?url=a.example&nope=true"), 400, "invalid-option");
  });
});

describe("POST /v1/normalize", () => {
  const app = createServeApp({ assetsDir, maxBatch: 5, maxBodyBytes: 2000 });
  const urls = [
    "HTTP://A.example/x/?utm_source=1",
    "ftp://nope",
    "b.example/?z=1&a=2",
    "youtu.be/dQw4w9WgXcQ",
  ];

  function expected(options?: Parameters<typeof explain>[1]) {
    return urls.map((input, index) => {
      try {
        const e = explain(input, options);
        return {
          index,
          input,
          ok: true,
          canonical: e.canonical,
          ruleApplied: e.ruleApplied,
          paramsStripped: e.paramsStripped,
        };
      } catch (error) {
        return {
          index,
          input,
          ok: false,
          error: { code: (error as { code: string }).code, message: (error as Error).message },
        };
      }
    });
  }

  it("NDJSON in, NDJSON out: one line per input in input order, failures as lines", async () => {
    const response = await post(
      app,
      "/v1/normalize",
      `${ndjson(urls.slice(0, 2))}\n\n${ndjson(urls.slice(2))}`,
    );
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^application\/x-ndjson/);
    const lines = await ndjsonLines(response);
    for (const line of lines) assert.ok(v.is(normalizeLineSchema, line), JSON.stringify(line));
    assert.deepEqual(lines, expected());
  });

  it("a JSON array (strings or {url}) and the {options, urls} wrapper answer the same lines", async () => {
    const array = await ndjsonLines(
      await post(app, "/v1/normalize", JSON.stringify(urls.map((u, i) => (i % 2 ? u : { url: u })))),
    );
    assert.deepEqual(array, expected());
    const wrapped = await ndjsonLines(
      await post(app, "/v1/normalize", JSON.stringify({ options: { preset: "rfc3986" }, urls }, null, 2)),
    );
    assert.deepEqual(wrapped, expected({ preset: "rfc3986" }));
    assert.notDeepEqual(wrapped, array);
  });

  it("options come from a first NDJSON line or the query, not both", async () => {
    const body = `${JSON.stringify({ options: { sortParams: false } })}\n${ndjson(urls)}`;
    assert.deepEqual(
      await ndjsonLines(await post(app, "/v1/normalize", body)),
      expected({ sortParams: false }),
    );
    assert.deepEqual(
      await ndjsonLines(await post(app, "/v1/normalize?sortParams=false", ndjson(urls))),
      expected({ sortParams: false }),
    );
    await errorOf(await post(app, "/v1/normalize?preset=rfc3986", body), 400, "invalid-option");
    await errorOf(
      await post(app, "/v1/normalize", `${ndjson(urls)}${JSON.stringify({ options: {} })}\n`),
      400,
      "bad-request",
    );
  });

  it("400: malformed JSON, a wrong shape, an unknown or ill-typed option", async () => {
    assert.match(
      await errorOf(await post(app, "/v1/normalize", '{"url":"a"}\n{"url":\n'), 400, "bad-request"),
      /line 2/,
    );
    assert.match(
      await errorOf(await post(app, "/v1/normalize", '{"href":"a"}\n'), 400, "bad-request"),
      /line 1/,
    );
    // Each message names the field or option at fault (issue 23): valibot's union answered
    // "Expected (Array | Object) but received Object" for all of these.
    assert.equal(
      await errorOf(await post(app, "/v1/normalize", "[1,2]"), 400, "bad-request"),
      '[0]: expected a URL string or {"url": "…"}, got number 1',
    );
    assert.equal(
      await errorOf(
        await post(app, "/v1/normalize", JSON.stringify({ options: { sortParams: "no" }, urls })),
        400,
        "invalid-option",
      ),
      'options.sortParams: Invalid type: Expected boolean but received "no"',
    );
    assert.equal(
      await errorOf(
        await post(app, "/v1/normalize", JSON.stringify({ options: { bogus: 1 }, urls })),
        400,
        "invalid-option",
      ),
      'options: unknown option "bogus"',
    );
    assert.equal(
      await errorOf(
        await post(app, "/v1/normalize", JSON.stringify({ urls: ["a", { url: 2 }] })),
        400,
        "bad-request",
      ),
      'urls[1]: expected a URL string or {"url": "…"}, got "url" as number 2',
    );
    assert.equal(
      await errorOf(await post(app, "/v1/normalize", JSON.stringify({ urls, extra: 1 })), 400, "bad-request"),
      'unknown field "extra" (a batch object holds "urls" and "options")',
    );
    assert.equal(
      await errorOf(await post(app, "/v1/normalize", '{"url":"a","x":1}\n'), 400, "bad-request"),
      'line 1: unknown field "x" (a line holds "url", or "options" on the first line)',
    );
    assert.equal(
      await errorOf(await post(app, "/v1/normalize", '{"url":"a"}\n{"url":5}\n'), 400, "bad-request"),
      'line 2: "url" must be a string, got number 5',
    );
    await errorOf(
      await post(app, "/v1/normalize?trailingSlash=sideways", ndjson(urls)),
      400,
      "invalid-option",
    );
    await errorOf(
      await post(app, "/v1/normalize", new Uint8Array([0x7b, 0xff, 0xfe]) as unknown as string),
      400,
      "bad-request",
    );
  });

  it("413: more inputs than maxBatch, a declared or a streamed body over maxBodyBytes", async () => {
    const six = ["a.example", "b.example", "c.example", "d.example", "e.example", "f.example"];
    assert.match(
      await errorOf(await post(app, "/v1/normalize", ndjson(six)), 413, "batch-too-large"),
      /at most 5/,
    );
    await errorOf(await post(app, "/v1/normalize", JSON.stringify(six)), 413, "batch-too-large");
    assert.equal((await post(app, "/v1/normalize", ndjson(six.slice(0, 5)))).status, 200);
    const big = ndjson([`a.example/${"x".repeat(2100)}`]);
    await errorOf(
      await post(app, "/v1/normalize", big, { "content-length": String(big.length) }),
      413,
      "body-too-large",
    );
    // Chunked, no length declared: the reader stops at the chunk that crosses the limit.
    const held = heldBody();
    const pending = post(app, "/v1/normalize", held.stream);
    held.push(`{"url":"${"y".repeat(1500)}"}\n`);
    held.push(`{"url":"${"y".repeat(1500)}"}\n`);
    await errorOf(await pending, 413, "body-too-large");
  });

  it("an empty body answers an empty stream", async () => {
    const response = await post(app, "/v1/normalize", "");
    assert.equal(response.status, 200);
    assert.equal(await response.text(), "");
  });
});

describe("GET errors", () => {
  const app = createServeApp({ assetsDir });
  it("400 for a missing or repeated url, an unknown or repeated option, a bad value, an invalid URL", async () => {
    await errorOf(await app.request("/v1/normalize"), 400, "bad-request");
    await errorOf(await app.request("/v1/normalize?url=a&url=b"), 400, "bad-request");
    await errorOf(
      await app.request("/v1/normalize?url=a&preset=rfc3986&preset=identity"),
      400,
      "invalid-option",
    );
    await errorOf(await app.request("/v1/normalize?url=a&sortParams=yes"), 400, "invalid-option");
    await errorOf(await app.request("/v1/explain?url=a&nope=1"), 400, "invalid-option");
    await errorOf(await app.request("/v1/normalize?url=ftp://x"), 400, "unsupported-scheme");
    await errorOf(await app.request("/v1/explain?url=http://[bad"), 400, "invalid-url");
    await errorOf(await app.request("/v1/classify"), 400, "bad-request");
    await errorOf(await app.request("/v1/classify?s=x&preset=rfc3986"), 400, "invalid-option");
    await errorOf(await app.request("/v2/nothing"), 404, "not-found");
  });
});

describe("limits on requests in flight", () => {
  it("429 past maxInFlight while a request is held, 200 again once it finishes", async () => {
    const app = createServeApp({ assetsDir, maxInFlight: 1 });
    const held = heldBody();
    const first = post(app, "/v1/normalize", held.stream);
    await new Promise((resolve) => setImmediate(resolve));
    const refused = await app.request("/v1/normalize?url=a.example");
    assert.equal(refused.headers.get("retry-after"), "1");
    await errorOf(refused, 429, "too-many-requests");
    held.push(ndjson(["a.example"]));
    held.end();
    const lines = await ndjsonLines(await first);
    assert.equal(lines.length, 1);
    assert.equal((await app.request("/v1/normalize?url=a.example")).status, 200);
  });

  it("a streamed answer holds its slot until its last byte is read", async () => {
    const app = createServeApp({ assetsDir, maxInFlight: 1 });
    const response = await post(
      app,
      "/v1/normalize",
      ndjson(Array.from({ length: 300 }, (_, i) => `h${i}.example`)),
    );
    assert.equal(response.status, 200);
    await errorOf(await app.request("/healthz"), 429, "too-many-requests");
    assert.equal((await ndjsonLines(response)).length, 300);
    assert.equal((await app.request("/healthz")).status, 200);
  });

  it("a complete answer frees its slot when its handler returns, body read or not", async () => {
    const app = createServeApp({ assetsDir, maxInFlight: 1 });
    const unread = await app.request("/v1/normalize?url=a.example");
    const next = await app.request("/v1/explain?url=a.example");
    assert.equal(next.status, 200, "the unread answer holds no slot");
    assert.equal(((await unread.json()) as { canonical: string }).canonical, "http://a.example/");
    await next.text();
  });

  it("503 once draining; the drain waits for the request in flight", async () => {
    const gate = createRequestGate(8);
    const app = createServeApp({ assetsDir }, gate);
    const held = heldBody();
    const first = post(app, "/v1/normalize", held.stream);
    await new Promise((resolve) => setImmediate(resolve));
    let drained = false;
    const drain = gate.drain().then(() => {
      drained = true;
    });
    await errorOf(await app.request("/healthz"), 503, "shutting-down");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(drained, false, "the drain waits for the held request");
    held.push(ndjson(["a.example", "b.example"]));
    held.end();
    assert.equal((await ndjsonLines(await first)).length, 2);
    await drain;
    assert.equal(drained, true);
  });
});
