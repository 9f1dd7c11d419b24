import { Hono } from "hono";
import { classify } from "../classify/index.js";
import { isCanonError } from "../errors/guards.js";
import { explain, normalizeResolved } from "../pipeline/normalize.js";
import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import {
  type ResolvedNormalizeOptions,
  resolveNormalizeOptions,
} from "../pipeline/resolve-normalize-options.js";
import { type Batch, batchFormat, parseBatch } from "./batch-body.js";
import { createBearerCheck } from "./bearer-token.js";
import { checkBrowserRequest } from "./browser-guard.js";
import { errorResponse, HttpError } from "./http-error.js";
import { isStreamedResponse, ndjsonResponse } from "./ndjson-response.js";
import { normalizeLines } from "./normalize-lines.js";
import { createOpenApiDocument } from "./openapi.js";
import {
  CONTENT_SECURITY_POLICY,
  defaultAssetsDir,
  type PlaygroundAssets,
  readPlaygroundAssets,
} from "./playground-assets.js";
import { optionsFromQuery, requiredParam } from "./query-options.js";
import { readBody } from "./read-body.js";
import { requestDeadline } from "./request-deadline.js";
import { createRequestGate, type RequestGate, releaseWhenSent } from "./request-gate.js";
import { resolveLines } from "./resolve-lines.js";
import { resolveServeOptions, type ServeOptions } from "./serve-options.js";
import { createSharedClients, type SharedClients } from "./shared-clients.js";

// Each request's deadline, from the moment it takes its slot: reading the body, the work and
// writing the answer all fall under it (issue 23).
const deadlines = new WeakMap<Request, ReturnType<typeof requestDeadline>>();

function deadlineOf(request: Request): AbortSignal {
  return (deadlines.get(request) as ReturnType<typeof requestDeadline>).signal;
}

// The batch of a POST: its Content-Type decides how it is read (415 for a type that is no batch),
// checked before a byte of the body is read.
async function readBatch(request: Request, maxBytes: number, maxItems: number): Promise<Batch> {
  const format = batchFormat(request.headers.get("content-type"));
  return parseBatch(await readBody(request, maxBytes, deadlineOf(request)), maxItems, format);
}

function optionError(error: unknown): never {
  if (error instanceof TypeError) throw new HttpError(400, "invalid-option", error.message);
  throw error;
}

function resolvedOptions(options: NormalizeOptions | undefined): ResolvedNormalizeOptions {
  try {
    return resolveNormalizeOptions(options);
  } catch (error) {
    optionError(error);
  }
}

function urlError(error: unknown): never {
  if (isCanonError(error)) throw new HttpError(400, error.code, error.message);
  optionError(error);
}

/**
 * The options of a batch request: the body's `options` or the query's, not both (two sources
 * would need a merge rule nobody could guess).
 */
function batchOptions(batch: Batch, query: URLSearchParams): NormalizeOptions | undefined {
  const fromQuery = optionsFromQuery(query, []);
  if (fromQuery !== undefined && batch.options !== undefined) {
    throw new HttpError(400, "invalid-option", "options given both in the query and in the body");
  }
  return fromQuery ?? batch.options;
}

/**
 * The service of api.md §9 as a Hono app: runs in-process (`app.request(…)`), under
 * `@hono/node-server` ({@link startServe}), or on any runtime Hono supports. `gate` lets the
 * caller that owns the socket drain it on shutdown; one is created when absent.
 *
 * @example
 * ```ts
 * const app = createServeApp({ allowResolve: false });
 * const response = await app.request("/v1/normalize?url=HTTP://Example.COM/a/");
 * await response.json(); // { canonical: "http://example.com/a", ruleApplied: null, paramsStripped: [] }
 * ```
 */
export function createServeApp(options: ServeOptions = {}, gate?: RequestGate, shared?: SharedClients): Hono {
  const config = resolveServeOptions(options);
  // Built on the first resolve request: a service that never resolves opens no pool.
  let clients: SharedClients | undefined = shared;
  const requests = gate ?? createRequestGate(config.maxInFlight);
  const checkToken = config.token === null ? null : createBearerCheck(config.token);
  const assets: PlaygroundAssets | null = readPlaygroundAssets(config.assetsDir ?? defaultAssetsDir());
  let openapi: string | undefined;
  const app = new Hono();

  app.onError((error) => {
    if (error instanceof HttpError) return errorResponse(error);
    config.log(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    return errorResponse(new HttpError(500, "internal", "internal error"));
  });
  app.notFound((c) =>
    errorResponse(new HttpError(404, "not-found", `no route ${c.req.method} ${c.req.path}`)),
  );

  app.use("*", async (c, next) => {
    let release: () => void;
    try {
      checkBrowserRequest(c.req.method, new URL(c.req.url), c.req.header("origin"), config.allowedHosts);
      release = requests.enter();
    } catch (error) {
      return errorResponse(error as HttpError);
    }
    const deadline = requestDeadline(c.req.raw.signal, config.requestTimeoutMs);
    deadlines.set(c.req.raw, deadline);
    const done = release;
    release = () => {
      deadline.clear();
      done();
    };
    try {
      await next();
    } catch (error) {
      release();
      throw error;
    }
    c.res.headers.set("content-security-policy", CONTENT_SECURITY_POLICY);
    c.res.headers.set("x-content-type-options", "nosniff");
    c.res.headers.set("referrer-policy", "no-referrer");
    // Only a streamed answer still works after its handler returned. Every other one is complete
    // and frees its slot now, unwrapped: wrapping its body in a stream took @hono/node-server off
    // its fast path for string bodies (GET /v1/normalize went from 17% to about half of the
    // constant app's rate in bench/serve.ts).
    if (isStreamedResponse(c.res)) c.res = releaseWhenSent(c.res, release);
    else release();
    return undefined;
  });

  const query = (url: string): URLSearchParams => new URL(url).searchParams;

  app.get("/healthz", (c) => c.json({ ok: true }));

  app.get("/v1/capabilities", (c) =>
    c.json({ resolve: config.allowResolve, tokenRequired: config.token !== null }),
  );

  app.get("/v1/normalize", (c) => {
    const params = query(c.req.url);
    const url = requiredParam(params, "url");
    const resolved = resolvedOptions(optionsFromQuery(params, ["url"]));
    try {
      const { canonical, ruleApplied, stripped } = normalizeResolved(url, resolved);
      return c.json({ canonical, ruleApplied, paramsStripped: stripped });
    } catch (error) {
      urlError(error);
    }
  });

  app.get("/v1/explain", (c) => {
    const params = query(c.req.url);
    const url = requiredParam(params, "url");
    const given = optionsFromQuery(params, ["url"]);
    try {
      // explain() validates the options before it reads the URL: a bad option is 400 invalid-option.
      return c.json(explain(url, given));
    } catch (error) {
      urlError(error);
    }
  });

  app.get("/v1/classify", (c) => {
    const params = query(c.req.url);
    const s = requiredParam(params, "s");
    for (const name of params.keys()) {
      if (name !== "s") throw new HttpError(400, "invalid-option", `unknown query parameter "${name}"`);
    }
    return c.json(classify(s));
  });

  app.post("/v1/normalize", async (c) => {
    const batch = await readBatch(c.req.raw, config.maxBodyBytes, config.maxBatch);
    const resolved = resolvedOptions(batchOptions(batch, query(c.req.url)));
    return ndjsonResponse(normalizeLines(batch.urls, resolved, deadlineOf(c.req.raw)));
  });

  app.post("/v1/resolve", async (c) => {
    if (!config.allowResolve) {
      throw new HttpError(403, "forbidden", "resolving is not enabled on this instance (--allow-resolve)");
    }
    if (checkToken !== null && !checkToken(c.req.header("authorization"))) {
      throw new HttpError(401, "unauthorized", "a valid bearer token is required");
    }
    const batch = await readBatch(c.req.raw, config.maxBodyBytes, config.maxBatch);
    const given = batchOptions(batch, query(c.req.url));
    let lease: ReturnType<SharedClients["acquire"]>;
    try {
      clients ??= createSharedClients(config.client);
      // The instance's network policy wins over nothing the request can say: only normalize
      // options come from the request, and they cannot name a network option.
      lease = clients.acquire(given);
    } catch (error) {
      optionError(error);
    }
    const signal = deadlineOf(c.req.raw);
    return ndjsonResponse(
      resolveLines(batch.urls, lease.client, config.resolveConcurrency, signal, config.log),
      // Also when the stream is cancelled before its first read.
      lease.release,
    );
  });

  app.get("/openapi.json", (c) => {
    openapi ??= JSON.stringify(createOpenApiDocument());
    return c.body(openapi, 200, { "content-type": "application/json; charset=utf-8" });
  });

  app.get("/", (c) => {
    if (assets === null) {
      throw new HttpError(500, "internal", "the playground is not built (npm run build)");
    }
    return c.html(assets.html);
  });
  app.get("/playground.js", (c) => {
    if (assets === null) throw new HttpError(404, "not-found", "the playground is not built");
    return c.body(assets.script, 200, { "content-type": "text/javascript; charset=utf-8" });
  });
  app.get("/playground.css", (c) => {
    if (assets === null) throw new HttpError(404, "not-found", "the playground is not built");
    return c.body(assets.style, 200, { "content-type": "text/css; charset=utf-8" });
  });

  return app;
}
