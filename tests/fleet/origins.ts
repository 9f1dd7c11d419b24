import type { IncomingMessage, ServerResponse } from "node:http";
import type { ClientOptions, Outcome } from "../../src/resolve/types.js";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";

/**
 * A local origin for fleet tests: paths `/ok/N` answer 200, `/r/N` redirect to `/ok/N`, `/404/N`
 * answer 404, `/slow/N` answer 200 after 30 ms. It counts requests in flight per Host header (the
 * peak is what the fleet-wide host limit must keep down).
 */
export interface Origin {
  server: LocalServer;
  peak: Map<string, number>;
}

export async function startOrigin(): Promise<Origin> {
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const host = request.headers.host ?? "";
    const now = (inFlight.get(host) ?? 0) + 1;
    inFlight.set(host, now);
    if (now > (peak.get(host) ?? 0)) peak.set(host, now);
    const finish = (status: number, headers: Record<string, string> = {}): void => {
      inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
      response.writeHead(status, { "content-type": "text/plain", ...headers });
      response.end("x");
    };
    const path = request.url ?? "/";
    const match = /^\/(ok|r|404|slow|hold)\/(\d+)/.exec(path);
    const kind = match?.[1];
    if (kind === "r") finish(301, { location: `/ok/${match?.[2]}` });
    else if (kind === "404" || kind === undefined) finish(404);
    else if (kind === "slow") setTimeout(() => finish(200), 30);
    else if (kind === "hold") setTimeout(() => finish(200), 20);
    else finish(200);
  };
  return { server: await startLocalServer({ handler }), peak };
}

/**
 * `n` inputs over hosts h0.test … h(hosts-1).test: successes, redirects, 404s, slow ones (every
 * `slowEvery`-th input of a cycle of six by default), invalid ones.
 */
export function fleetInputs(n: number, port: number, hosts = 4, slowEvery = 6): string[] {
  const kinds = ["ok", "r", "404", "ok", "ok", "ok"];
  return Array.from({ length: n }, (_, i) => {
    if (i % 97 === 13) return "not a url";
    const kind = i % slowEvery === 3 ? "slow" : kinds[i % kinds.length];
    return `http://h${i % hosts}.test:${port}/${kind}/${i}`;
  });
}

/** What must be equal between a fleet run and a single-process run (not timings, cache flags). */
export function essence(o: Outcome): unknown {
  if (!o.ok) return [o.index, o.input, o.error.code, o.error.name];
  const r = o.result;
  return [o.index, o.input, r.url, r.source, r.status, r.chain.map((h) => [h.url, h.status]), r.verified];
}

/**
 * Client options that reach only the origin on `port`: every `.test` name resolves to 127.0.0.1,
 * and only that address and port are allowed. `extra` adds or overrides options.
 */
export function originClient(port: number, extra: Partial<ClientOptions> = {}): ClientOptions {
  return {
    resolver: async (host) => (host.endsWith(".test") ? ["127.0.0.1"] : []),
    allowedNetworks: ["127.0.0.1/32"],
    allowedPorts: [port],
    ...extra,
  };
}
