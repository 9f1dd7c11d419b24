// Types of test-services.mjs, for the TypeScript helpers and benchmarks that load it.
export interface RedisServer {
  url: string;
  port: number;
  pid: number | undefined;
  stop(): Promise<void>;
}
export function ensureRedisServer(options?: {
  log?: (line: string) => void;
}): { path: string; error?: undefined } | { path?: undefined; error: string };
export function freePort(): Promise<number>;
export function startRedisServer(options?: {
  path?: string;
  port?: number;
  dir?: string;
}): Promise<RedisServer>;
