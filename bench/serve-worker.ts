// One HTTP server of the serve bench, in its own thread so the load generator on the main thread
// does not share an event loop with it. `kind: "canonurl"` is the real service; `kind: "constant"`
// is the same Hono app on the same @hono/node-server answering prebuilt bodies of the same bytes:
// what the framework and the socket cost without any normalizing.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { startServe } from "../src/serve/start-serve.js";

/** What the main thread hands a worker. */
export interface ServeWorkerData {
  kind: "canonurl" | "constant";
  /** For `constant`: the bodies to answer GET and POST /v1/normalize with. */
  getBody?: string;
  postBody?: string;
}

const data = workerData as ServeWorkerData;

async function listen(): Promise<number> {
  if (data.kind === "canonurl") {
    // The default limits, except a batch of 1,000 lines and 64 in flight fit them already.
    const running = await startServe({ port: 0 });
    return running.port;
  }
  const app = new Hono();
  const getBody = data.getBody ?? "{}";
  const postBody = data.postBody ?? "";
  app.get("/v1/normalize", (c) => c.body(getBody, 200, { "content-type": "application/json" }));
  app.post("/v1/normalize", async (c) => {
    // Reads the whole body, as the service must before it answers.
    await c.req.text();
    return c.body(postBody, 200, { "content-type": "application/x-ndjson" });
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () =>
      resolve((server.address() as AddressInfo).port),
    ) as Server;
  });
}

parentPort?.postMessage({ port: await listen() });
