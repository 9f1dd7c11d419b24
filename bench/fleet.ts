// Fleet throughput: N URLs over 16 hosts against a local origin (a child process) holding every
// response 20 ms, resolved by 1, 2 and 4 worker processes of the built binary (`canonurl fleet
// work`) sharing one redis-server, against one in-process resolveMany at the same total
// concurrency. Workers are started and ready before the clock runs; the clock covers submit to
// the last result read back in order.
import { type ChildProcess, spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { createFleet } from "../src/fleet/index.js";
import { createClient } from "../src/resolve/client.js";
import { fromRoot } from "../tests/helpers/paths.js";

const HOLD_MS = 20;
const HOSTS = 16;
const ORIGIN = `
const { createServer } = require("node:http");
const server = createServer((q, r) => setTimeout(() => { r.writeHead(200, { "content-type": "text/plain" }); r.end("x"); }, ${HOLD_MS}));
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));`;

/** One measured setup. */
export interface FleetRate {
  label: string;
  urlsPerSecond: number;
  seconds: number;
}

function firstLine(child: ChildProcess, stream: "stdout" | "stderr"): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    child[stream]?.setEncoding("utf8").on("data", (d: string) => {
      text += d;
      const nl = text.indexOf("\n");
      if (nl >= 0) resolve(text.slice(0, nl));
    });
  });
}

/** Runs the fleet bench: `urls` inputs, `concurrency` resolutions in flight in all. */
export async function benchFleet(
  urls = 6_000,
  concurrency = 32,
): Promise<{ rates: FleetRate[]; overheadUs: number; urls: number; concurrency: number }> {
  const services = (await import(
    pathToFileURL(fromRoot("scripts", "test-services.mjs")).href
  )) as typeof import("../scripts/test-services.mjs");
  const redis = await services.startRedisServer();
  const origin = spawn(process.execPath, ["-e", ORIGIN], { stdio: ["ignore", "pipe", "inherit"] });
  const port = Number(await firstLine(origin, "stdout"));
  const inputs = Array.from({ length: urls }, (_, i) => `http://h${i % HOSTS}.test:${port}/p/${i}`);
  const client = {
    resolver: async () => ["127.0.0.1"],
    allowedNetworks: ["127.0.0.1/32"],
    allowedPorts: [port],
  };
  const rates: FleetRate[] = [];
  try {
    const single = createClient(client);
    let t = performance.now();
    let n = 0;
    for await (const _ of single.resolveMany(inputs, { concurrency })) n++;
    let seconds = (performance.now() - t) / 1000;
    await single.close();
    rates.push({
      label: `single process, resolveMany concurrency ${concurrency}`,
      urlsPerSecond: n / seconds,
      seconds,
    });
    for (const k of [1, 2, 4]) {
      const queue = `bench${k}`;
      const args = [fromRoot("dist/cli/bin.js"), "fleet", "work", "--redis", redis.url, "--queue", queue];
      for (let h = 0; h < HOSTS; h++) args.push("--resolve", `h${h}.test:127.0.0.1`);
      args.push("--allow-network", "127.0.0.1/32", "--allowed-port", String(port));
      args.push("--concurrency", String(concurrency / k), "--host-concurrency", "1000");
      const workers = Array.from({ length: k }, () =>
        spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] }),
      );
      await Promise.all(workers.map((w) => firstLine(w, "stderr")));
      const fleet = createFleet({ redis: redis.url, queue });
      // Paths of this run only: the workers' shared Redis cache must not answer from a run before.
      const own = inputs.map((u) => `${u}/${k}`);
      t = performance.now();
      const { job } = await fleet.submit(own);
      n = 0;
      for await (const _ of fleet.results(job)) n++;
      seconds = (performance.now() - t) / 1000;
      rates.push({
        label: `fleet, ${k} worker process${k > 1 ? "es" : ""} × concurrency ${concurrency / k}`,
        urlsPerSecond: n / seconds,
        seconds,
      });
      await fleet.close();
      for (const w of workers) w.kill("SIGTERM");
      await Promise.all(
        workers.map((w) => new Promise((r) => (w.exitCode === null ? w.once("exit", r) : r(null)))),
      );
    }
  } finally {
    origin.kill();
    await redis.stop();
  }
  const single = rates[0] as FleetRate;
  const one = rates[1] as FleetRate;
  return { rates, overheadUs: ((one.seconds - single.seconds) / urls) * 1e6, urls, concurrency };
}
