// A second process that opens the same store as a test: proves entries outlive a process and that
// processes share one SQLite file or one Redis. Run as `node cache-child.js '<json spec>'`; prints
// one JSON line.
import type { Cache } from "../../src/cache/cache.js";
import { redisCache } from "../../src/cache/redis-cache.js";
import { sqliteCache } from "../../src/cache/sqlite-cache.js";
import { sampleEntry } from "./sample-entry.js";

interface Spec {
  backend: "sqlite" | "redis";
  target: string;
  driver?: "node:sqlite" | "better-sqlite3";
  prefix?: string;
  op: "set" | "get" | "write-many" | "probe";
  key?: string;
  n?: number;
  tag?: string;
  count?: number;
}

const spec = JSON.parse(process.argv[2] ?? "{}") as Spec;
const cache: Cache =
  spec.backend === "sqlite"
    ? sqliteCache(spec.target, spec.driver === undefined ? {} : { driver: spec.driver })
    : redisCache(spec.target, spec.prefix === undefined ? {} : { prefix: spec.prefix });

async function settle(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (error) {
    return `rejected: ${(error as Error).message}`;
  }
}

let out: unknown;
switch (spec.op) {
  case "set":
    await cache.set(spec.key ?? "k", sampleEntry(spec.n ?? 0));
    out = "ok";
    break;
  case "get":
    out = (await cache.get(spec.key ?? "k")) ?? null;
    break;
  case "write-many": {
    // Interleaves with the sibling process: its own keys plus one key both overwrite.
    const count = spec.count ?? 100;
    for (let i = 0; i < count; i++) {
      await Promise.all([cache.set(`${spec.tag}-${i}`, sampleEntry(i)), cache.set("shared", sampleEntry(i))]);
    }
    out = count;
    break;
  }
  case "probe":
    out = {
      get: await settle(cache.get(spec.key ?? "k")),
      set: await settle(cache.set("probe", sampleEntry(1))),
    };
    break;
}
await cache.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
