import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "redis";
import type { RedisServer } from "../../scripts/test-services.mjs";
import { fromRoot } from "./paths.js";

export type { RedisServer };

/**
 * The URL of the redis-server that scripts/run-tests.mjs started for this run. Throws (so the test
 * FAILS, never skips) when there is none, with the command that provisions it.
 */
export function testRedisUrl(): string {
  const url = process.env.CANONURL_TEST_REDIS;
  if (url !== undefined && url !== "") return url;
  throw new Error(
    process.env.CANONURL_TEST_REDIS_MISSING ??
      "CANONURL_TEST_REDIS is not set: run the tests through scripts/run-tests.mjs (npm test), which starts redis-server",
  );
}

type Services = typeof import("../../scripts/test-services.mjs");

// Loaded by path from the repository root: the compiled helper lives in build/tests, the script
// does not move.
async function services(): Promise<Services> {
  return (await import(pathToFileURL(fromRoot("scripts", "test-services.mjs")).href)) as Services;
}

/**
 * A redis-server of the test's own, on a free loopback port (or `port`, to restart one where it
 * was), persistence off; in `dir` (kept) it loads what a `SAVE` there left. Stop it in an
 * `after`/`finally`.
 */
export async function startRedisServer(port?: number, dir?: string): Promise<RedisServer> {
  const s = await services();
  const binary = s.ensureRedisServer();
  if (binary.error !== undefined) throw new Error(binary.error);
  return s.startRedisServer({
    path: binary.path,
    ...(port === undefined ? {} : { port }),
    ...(dir === undefined ? {} : { dir }),
  });
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return (await services()).freePort();
}

/** A private redis-server that keeps its data across {@link RestartableRedis.restart}. */
export interface RestartableRedis {
  readonly url: string;
  /**
   * Persists what the server holds (`SAVE`), stops it, waits half a second and starts it again on
   * its port and data: clients see the connection drop, and work done in between is lost with it.
   */
  restart(): Promise<void>;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts a {@link RestartableRedis} in a temporary data directory, for tests of what survives a
 * Redis restart. The shared server serves the other tests and is never restarted.
 */
export async function startRestartableRedis(): Promise<RestartableRedis> {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-redis-"));
  let server = await startRedisServer(undefined, dir);
  const { port, url } = server;
  return {
    url,
    async restart() {
      const admin = createClient({ url });
      await admin.connect();
      await admin.sendCommand(["SAVE"]);
      await admin.close();
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
      server = await startRedisServer(port, dir);
    },
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
