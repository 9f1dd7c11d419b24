import { pathToFileURL } from "node:url";
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
