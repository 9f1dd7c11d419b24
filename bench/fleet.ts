// Fleet throughput: N URLs over 16 hosts against a local origin (a child process) holding every
// response 20 ms, resolved by 1, 2 and 4 worker processes of the built binary (`canonurl fleet
// work`, each with the same --concurrency) sharing one redis-server, each against one in-process
// resolveMany with the same total concurrency (workers × per-worker concurrency). Workers are
// started and warmed up before the clock runs; the clock covers submit to the last result read back in
// order. Besides wall time it counts what the fleet costs per URL: Redis commands (INFO
// commandstats), Redis CPU (INFO cpu), and the workers' CPU (/proc) against the single process's.
// FLEET_PROF_DIR=DIR runs the workers with --cpu-prof into DIR.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createClient as createRedisClient } from "redis";
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
  workers: number;
  urlsPerSecond: number;
  seconds: number;
  /** CPU of the resolving process(es) per URL. */
  cpuUsPerUrl: number;
  /** Only for fleet runs: Redis commands and Redis CPU per URL. */
  redisCallsPerUrl?: number;
  redisCpuUsPerUrl?: number;
  /** Only for fleet runs: the commands that cost Redis most, `name calls/URL µs/URL`. */
  topCommands?: string[];
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

// utime + stime of a process in µs (Linux /proc; clock ticks are 100 Hz on every Linux Node runs).
function processCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

type Commandstats = Map<string, { calls: number; usec: number }>;

async function redisStats(url: string): Promise<{ cpuUs: number; commands: Commandstats }> {
  const r = createRedisClient({ url });
  await r.connect();
  const cpu = await r.info("cpu");
  const stats = await r.info("commandstats");
  await r.close();
  const num = (name: string): number => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
  const commands: Commandstats = new Map();
  for (const m of stats.matchAll(/cmdstat_([^:]+):calls=(\d+),usec=(\d+)/g)) {
    commands.set(m[1] as string, { calls: Number(m[2]), usec: Number(m[3]) });
  }
  return { cpuUs: (num("used_cpu_sys") + num("used_cpu_user")) * 1e6, commands };
}

async function single(
  inputs: string[],
  options: Parameters<typeof createClient>[0],
  concurrency: number,
): Promise<FleetRate> {
  const client = createClient(options);
  // Warmed up as the workers are: the engine loaded and its code compiled before the clock runs.
  for await (const _ of client.resolveMany(
    inputs.slice(0, 400).map((u) => `${u}/w`),
    { concurrency },
  ));
  const cpu = process.cpuUsage();
  const t = performance.now();
  let n = 0;
  for await (const _ of client.resolveMany(inputs, { concurrency })) n++;
  const seconds = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  await client.close();
  return {
    label: `single process, resolveMany concurrency ${concurrency}`,
    workers: 0,
    urlsPerSecond: n / seconds,
    seconds,
    cpuUsPerUrl: (used.user + used.system) / n,
  };
}

/** Runs the fleet bench: `urls` inputs per run, `concurrency` resolutions in flight per worker. */
export async function benchFleet(
  urls = 6_000,
  concurrency = 16,
): Promise<{ rates: FleetRate[]; urls: number; concurrency: number }> {
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
  const prof = process.env.FLEET_PROF_DIR;
  const rates: FleetRate[] = [];
  try {
    for (const k of [1, 2, 4]) {
      // Paths of this run only: no connection or cache of a run before answers for this one.
      rates.push(
        await single(
          inputs.map((u) => `${u}/s${k}`),
          client,
          concurrency * k,
        ),
      );
      const queue = `bench${k}`;
      const args = [fromRoot("dist/cli/bin.js"), "fleet", "work", "--redis", redis.url, "--queue", queue];
      if (prof !== undefined) args.unshift("--cpu-prof", "--cpu-prof-dir", prof);
      for (let h = 0; h < HOSTS; h++) args.push("--resolve", `h${h}.test:127.0.0.1`);
      args.push("--allow-network", "127.0.0.1/32", "--allowed-port", String(port));
      args.push("--concurrency", String(concurrency), "--host-concurrency", "1000");
      const workers = Array.from({ length: k }, () =>
        spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] }),
      );
      await Promise.all(workers.map((w) => firstLine(w, "stderr")));
      const fleet = createFleet({ redis: redis.url, queue });
      // A warm-up job first: each worker loads its resolver and BullMQ on its first chunk, a cost
      // paid once per process, not per URL.
      const warm = await fleet.submit(
        inputs.slice(0, 400 * k).map((u) => `${u}/w${k}`),
        { chunkSize: 25 },
      );
      for await (const _ of fleet.results(warm.job));
      const own = inputs.map((u) => `${u}/f${k}`);
      const before = await redisStats(redis.url);
      const cpuBefore = workers.map((w) => processCpuUs(w.pid as number));
      const t = performance.now();
      const { job } = await fleet.submit(own);
      let n = 0;
      for await (const _ of fleet.results(job)) n++;
      const seconds = (performance.now() - t) / 1000;
      const cpu = workers.reduce((sum, w, i) => sum + processCpuUs(w.pid as number) - (cpuBefore[i] ?? 0), 0);
      const after = await redisStats(redis.url);
      let calls = 0;
      const costs: [string, number, number][] = [];
      for (const [name, now] of after.commands) {
        const was = before.commands.get(name) ?? { calls: 0, usec: 0 };
        if (name === "info") continue;
        calls += now.calls - was.calls;
        costs.push([name, (now.calls - was.calls) / n, (now.usec - was.usec) / n]);
      }
      costs.sort((a, b) => b[2] - a[2]);
      rates.push({
        label: `fleet, ${k} worker process${k > 1 ? "es" : ""} × concurrency ${concurrency}`,
        workers: k,
        urlsPerSecond: n / seconds,
        seconds,
        cpuUsPerUrl: cpu / n,
        redisCallsPerUrl: calls / n,
        redisCpuUsPerUrl: (after.cpuUs - before.cpuUs) / n,
        topCommands: costs
          .slice(0, 6)
          .map(([name, c, us]) => `${name} ${c.toFixed(2)}/URL ${us.toFixed(1)} µs`),
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
  return { rates, urls, concurrency };
}
