// Test harness for the hop loop: a local server with a request log, a stub resolver for `.test`
// names that rejects every other name (so the system resolver is provably never consulted), and
// client options that keep the address policy on with only 127.0.0.1 let through.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ClientOptions } from "../../src/resolve/types.js";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A resolver for the names given; any other name rejects. Records every lookup. */
export function stubResolver(
  names: Readonly<Record<string, readonly string[] | (() => string[])>>,
): ((hostname: string, signal: AbortSignal) => Promise<string[]>) & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<string[]> => {
    calls.push(hostname);
    const entry = names[hostname];
    if (entry === undefined) throw new Error(`stub resolver: unknown name ${hostname}`);
    return typeof entry === "function" ? entry() : [...entry];
  };
  return Object.assign(resolver, { calls });
}

/** Names every site answers to, all mapped to 127.0.0.1. */
export const LOOPBACK_NAMES = ["a.test", "www.a.test", "b.test", "c.test", "secure.test"] as const;

export interface Site {
  readonly server: LocalServer;
  /** `METHOD host/path` of every request, in arrival order. */
  readonly log: string[];
  url(path: string, host?: string): string;
  /** Client options for this site; `names` adds or overrides resolver entries. */
  options(extra?: ClientOptions, names?: Record<string, readonly string[] | (() => string[])>): ClientOptions;
  close(): Promise<void>;
}

export async function startSite(handler: Handler, tls?: { key: string; cert: string }): Promise<Site> {
  const log: string[] = [];
  const server = await startLocalServer({
    handler: (request, response) => {
      const host = (request.headers.host ?? "").replace(/:\d+$/, "");
      log.push(`${request.method} ${host}${request.url}`);
      handler(request, response);
    },
    ...(tls === undefined ? {} : { tls }),
  });
  return {
    server,
    log,
    url: (path, host = "a.test") => `${server.origin(host)}${path}`,
    options(extra = {}, names = {}) {
      const base = Object.fromEntries(LOOPBACK_NAMES.map((name) => [name, ["127.0.0.1"]]));
      return {
        resolver: stubResolver({ ...base, ...names }),
        allowedNetworks: ["127.0.0.1/32"],
        allowedPorts: [server.port],
        ...extra,
      };
    },
    close: () => server.close(),
  };
}

/** Serves `head` as an HTML document (the body is never needed by the resolver). */
export function sendHtml(
  response: ServerResponse,
  head: string,
  headers: Record<string, string> = {},
  status = 200,
): void {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers });
  response.end(`<!doctype html><html><head>${head}</head><body>body</body></html>`);
}

/** Answers by `METHOD path` first, then by `path`; 404 otherwise. */
export function routes(table: Record<string, Handler>): Handler {
  return (request, response) => {
    const path = request.url ?? "/";
    const route = table[`${request.method} ${path}`] ?? table[path];
    if (route !== undefined) route(request, response);
    else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
    }
  };
}

export function redirect(location: string, status = 301): Handler {
  return (_request, response) => {
    response.writeHead(status, { location });
    response.end();
  };
}

export function text(body = "ok", contentType = "text/plain"): Handler {
  return (_request, response) => {
    response.writeHead(200, { "content-type": contentType });
    response.end(body);
  };
}
