import { randomUUID } from "node:crypto";
import type { Transport, TransportRequest, TransportResponse } from "../resolve/http/transport.js";

/** The few node-redis calls the limit needs, so a test can see what it sends. */
export interface HostLimitRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  zRem(key: string, member: string): Promise<unknown>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
}

/** Options of {@link limitHosts}. */
export interface HostLimitOptions {
  /** Requests in flight to one host (host:port) across every worker sharing `prefix`. */
  limit: number;
  /** Key prefix, e.g. `canonurl:fleet:QUEUE:`. */
  prefix: string;
  /**
   * How long a slot is held at most when its holder never gives it back (a worker killed with
   * SIGKILL): longer than any one request may take (the client's total timeout).
   */
  leaseMs: number;
  /** Longest Retry-After pause (429/503) honoured for the whole fleet. */
  maxPauseMs: number;
}

// One atomic step per attempt: drop the slots whose lease ran out (their holder died), refuse while
// the host is paused by a Retry-After, else take a slot if fewer than ARGV[2] are held. A sorted set
// scored by lease end, not INCR/DECR: a counter a killed worker incremented would stay high forever.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0`;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done(): void {
      signal.removeEventListener("abort", stop);
      resolve();
    }
    function stop(): void {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener("abort", stop, { once: true });
  });
}

function retryAfterMs(response: TransportResponse): number {
  if (response.status !== 429 && response.status !== 503) return 0;
  const raw = response.headers["retry-after"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string") return 0;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 0 : at - Date.now();
}

/**
 * Wraps a transport so that at most `limit` requests to one host are in flight across the whole
 * fleet: each request takes a slot in a Redis sorted set (one per host) before it is sent and gives
 * it back when its response is disposed. A 429 or 503 with a Retry-After pauses the host for every
 * worker (capped at `maxPauseMs`). A slot whose holder died expires after `leaseMs`.
 *
 * @example
 * ```ts
 * const transport = limitHosts(createPinnedTransport(), redis, { limit: 4, prefix: "canonurl:fleet:q:", leaseMs: 60_000, maxPauseMs: 5_000 });
 * ```
 */
export function limitHosts(
  inner: Transport,
  redis: HostLimitRedis,
  options: HostLimitOptions,
): Transport & { readonly redisFailures: number } {
  const { limit, prefix, leaseMs, maxPauseMs } = options;
  let redisFailures = 0;
  async function acquire(host: string, signal: AbortSignal): Promise<string> {
    const member = randomUUID();
    const slots = `${prefix}host:${host}`;
    const pause = `${prefix}pause:${host}`;
    let wait = 2;
    for (;;) {
      const now = Date.now();
      let got: unknown = 0;
      try {
        got = await redis.eval(ACQUIRE, {
          keys: [slots, pause],
          arguments: [String(now), String(limit), String(now + leaseMs), member, String(leaseMs * 2)],
        });
      } catch {
        // Redis is away (restarting, unreachable): wait for it within the request's deadline. The
        // count tells the chunk that its failures may be the fleet's, not the inputs'.
        redisFailures++;
      }
      if (got === 1) return member;
      // Short, growing waits with jitter: a freed slot is taken within a few ms without the
      // waiters polling Redis in lock step.
      await sleep(wait + Math.random() * wait, signal);
      wait = Math.min(wait * 2, 50);
    }
  }
  return {
    get redisFailures() {
      return redisFailures;
    },
    async request(request: TransportRequest): Promise<TransportResponse> {
      const host = request.url.host;
      const member = await acquire(host, request.signal);
      let released = false;
      const release = async (): Promise<void> => {
        if (released) return;
        released = true;
        await redis.zRem(`${prefix}host:${host}`, member).catch(() => {});
      };
      let response: TransportResponse;
      try {
        response = await inner.request(request);
      } catch (error) {
        await release();
        throw error;
      }
      const pauseMs = Math.min(retryAfterMs(response), maxPauseMs);
      if (pauseMs > 0) await redis.set(`${prefix}pause:${host}`, "1", { PX: pauseMs }).catch(() => {});
      return {
        status: response.status,
        headers: response.headers,
        body: response.body,
        async dispose() {
          try {
            await response.dispose();
          } finally {
            await release();
          }
        },
      };
    },
    async close() {
      await inner.close?.();
    },
  };
}
