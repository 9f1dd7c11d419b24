import type { ClientOptions } from "../resolve/types.js";

/**
 * Options of `createFleet`. Only `redis` is required; the rest are tuning with defaults sized for
 * a crawl (chunks of 100 inputs, results kept a week).
 */
export interface FleetOptions {
  /** `redis://[user:password@]host:port[/db]` of the Redis every submitter and worker shares. */
  redis: string;
  /** The BullMQ queue (and key prefix). @default "canonurl" */
  queue?: string | undefined;
  /** Options of each worker's canonurl client. */
  client?: ClientOptions;
  /** Requests in flight to one host across the whole fleet. @default 6 */
  hostLimit?: number;
  /** Attempts of a chunk before it fails; from the second on, inputs run one by one. @default 3 */
  attempts?: number;
  /** How often a worker looks for chunks whose worker died (BullMQ stalledInterval). @default 30000 */
  stalledIntervalMs?: number;
  /** How long results stay in Redis. @default 604800 (7 days) */
  resultTtlSeconds?: number;
  /**
   * How long a command waits to reach Redis before it fails with an error naming the address (an
   * unreachable Redis made every command hang for ever). @default 5000
   */
  connectTimeoutMs?: number;
}

/** The resolved {@link FleetOptions}. */
export interface FleetSettings {
  redis: string;
  queue: string;
  client: ClientOptions;
  hostLimit: number;
  attempts: number;
  stalledIntervalMs: number;
  resultTtlSeconds: number;
  connectTimeoutMs: number;
}

function positiveInteger(value: number | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new TypeError(`createFleet: ${name} must be an integer from 1 to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * Checks and completes fleet options; a bad value is a TypeError at construction.
 *
 * @example
 * ```ts
 * fleetSettings({ redis: "redis://127.0.0.1:6379" }).queue; // "canonurl"
 * ```
 */
export function fleetSettings(options: FleetOptions): FleetSettings {
  if (typeof options?.redis !== "string" || !/^rediss?:\/\//.test(options.redis)) {
    throw new TypeError("createFleet: redis must be a redis:// or rediss:// URL");
  }
  const queue = options.queue ?? "canonurl";
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(queue)) {
    throw new TypeError(`createFleet: queue must be 1 to 64 of A-Z a-z 0-9 _ . -, got '${queue}'`);
  }
  return {
    redis: options.redis,
    queue,
    client: options.client ?? {},
    hostLimit: positiveInteger(options.hostLimit, "hostLimit", 6, 10_000),
    attempts: positiveInteger(options.attempts, "attempts", 3, 100),
    stalledIntervalMs: positiveInteger(options.stalledIntervalMs, "stalledIntervalMs", 30_000, 3_600_000),
    resultTtlSeconds: positiveInteger(options.resultTtlSeconds, "resultTtlSeconds", 604_800, 31_536_000),
    connectTimeoutMs: positiveInteger(options.connectTimeoutMs, "connectTimeoutMs", 5_000, 3_600_000),
  };
}

/**
 * Checks a job name: what `submit` names a job and `results` reads it back by.
 *
 * @example
 * ```ts
 * checkJobName("crawl-2026-12-04"); // "crawl-2026-12-04"
 * ```
 */
export function checkJobName(job: string): string {
  if (typeof job !== "string" || !/^[A-Za-z0-9_.-]{1,100}$/.test(job)) {
    throw new TypeError(`fleet: a job name is 1 to 100 of A-Z a-z 0-9 _ . -, got '${String(job)}'`);
  }
  return job;
}
