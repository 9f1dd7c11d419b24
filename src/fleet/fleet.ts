import type * as BullMQ from "bullmq";
import type { Job } from "bullmq";
import type * as NodeRedis from "redis";
import { redisCache } from "../cache/redis-cache.js";
import { createClient, createPinnedTransport } from "../resolve/lazy-client.js";
import { checkUrlLength } from "../url/max-url-length.js";
import type { FleetOutcome } from "./blank-outcome.js";
import { fleetLibraries } from "./fleet-libraries.js";
import { checkJobName, type FleetOptions, type FleetSettings, fleetSettings } from "./fleet-options.js";
import { limitHosts } from "./host-limit.js";
import { hostPrefix, jobKeys } from "./keys.js";
import { lanes } from "./lanes.js";
import { decodeOutcome, encodeError, type StoredOutcome } from "./outcome-codec.js";
import {
  type ChunkData,
  POISON_CRASHES,
  resolveChunk,
  resolveTracked,
  type StoredError,
} from "./run-chunk.js";

/** A fleet: submit inputs, run workers, read results; see `createFleet`. */
export interface Fleet {
  submit(
    urls: Iterable<string> | AsyncIterable<string>,
    init?: { job?: string; chunkSize?: number },
  ): Promise<{ job: string; count: number }>;
  /**
   * Runs a worker until `signal` aborts. `onReady` is called once, when its connections to Redis
   * are up and it takes chunks (never when Redis cannot be reached: `work` rejects then).
   */
  work(init?: {
    concurrency?: number;
    signal?: AbortSignal;
    drainMs?: number;
    onReady?: () => void;
  }): Promise<void>;
  /** Every input's outcome once, in input order; a blank input line is a `BlankOutcome` (not a failure). */
  results(job: string, init?: { follow?: boolean; signal?: AbortSignal }): AsyncIterable<FleetOutcome>;
  progress(job: string): Promise<{ total: number; done: number; failed: number }>;
  close(): Promise<void>;
}

/**
 * An input that failed before it was submitted, with what its outcome shows as its input: the
 * CLI's over-long line, which is never held whole. Internal to the CLI; `submit` takes it
 * alongside strings.
 *
 * @example
 * ```ts
 * await fleet.submit([url, new FailedInput("https://a.test/aaa…", overlongError(line))] as AsyncIterable<string>);
 * ```
 */
export class FailedInput {
  constructor(
    readonly input: string,
    readonly error: unknown,
  ) {}
}

// An input longer than any URL the resolver accepts is not stored whole (one job, one Redis value
// per chunk): its outcome shows its first characters and fails as the resolver would fail it.
function tooLong(url: string): FailedInput | undefined {
  try {
    checkUrlLength(url, "the input", url);
    return undefined;
  } catch (error) {
    return new FailedInput(`${url.slice(0, 64)}…`, error);
  }
}

type Redis = ReturnType<typeof NodeRedis.createClient>;

const MAX_CHUNK_SIZE = 10_000;
/**
 * A chunk is cut early when its inputs reach this many characters, so no job or stored chunk grows
 * past a few MB whatever the inputs (at most 10,000 × 64 Ki otherwise).
 *
 * @example
 * ```ts
 * MAX_CHUNK_CHARS; // 4194304
 * ```
 */
export const MAX_CHUNK_CHARS = 4 * 1024 * 1024;
// Chunks one worker runs at once, sharing its `concurrency` lanes: more than one, so the lanes stay
// busy while a slow input holds the tail of a chunk and while a finished chunk is written.
const CHUNKS_PER_WORKER = 4;
// BullMQ fails a job that stalled more often than this without any event a worker sees, which
// would leave its inputs without outcomes: each death of a rerun chunk adds a suspicion to the
// inputs it had in flight, so a chunk dies about 1 + POISON_CRASHES × its size times at most.
const MAX_STALLS = 1 + POISON_CRASHES * MAX_CHUNK_SIZE;

function newJobName(): string {
  return `job-${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

// A host slot nobody renews any more (its worker died, or a Redis restart restored it from a
// snapshot after it was given back) frees itself this long after its last renewal. It was the
// client's total timeout plus 5 s, unrenewed: after a restart, every request to a host whose slots
// the snapshot held waited that long, and with the default timeout failed with `timeout`.
const SLOT_LEASE_MS = 5_000;

// How long the results reader keeps trying a read that the connection lost before it gives up.
const READ_RETRY_MS = 60_000;

// How long close() waits for each client to end cleanly before destroying it: a client whose
// Redis is gone never ends cleanly, and a worker under systemd or Docker must stop in time.
const CLOSE_MS = 2_000;

/** The default of `work`'s `drainMs`: how long a stopped worker waits for its chunks in hand. */
export const DEFAULT_WORKER_DRAIN_MS = 10_000;

/** Resolves when `promise` settles or after `ms`, whichever comes first; never rejects. */
function bounded(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// The address of a Redis URL for messages: host and port, never the password.
function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return "redis";
  }
}

/**
 * Connects `client`, or fails within `ms` with an error naming the address: node-redis retries a
 * refused connection for ever, so an unreachable Redis made every fleet command hang silently.
 */
async function connectWithin(client: Redis, url: string, ms: number): Promise<void> {
  let last: unknown;
  const onError = (error: unknown) => {
    last = error;
  };
  client.on("error", onError);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const why = last instanceof Error ? `: ${last.message}` : "";
          reject(
            Object.assign(new Error(`cannot reach Redis at ${redisAddress(url)} within ${ms} ms${why}`), {
              code: "redis-unreachable",
            }),
          );
        }, ms);
      }),
    ]);
  } catch (error) {
    try {
      client.destroy();
    } catch {
      // never connected
    }
    throw error;
  } finally {
    clearTimeout(timer);
    client.off("error", onError);
  }
}

/**
 * `op` again after a lost connection: a command in flight when the connection drops rejects with
 * the socket's error (ECONNRESET), while the client reconnects by itself and queues what comes
 * next. A reply of Redis's own (ErrorReply), a closed client or an abort is final, and so is a
 * connection lost for longer than READ_RETRY_MS.
 */
async function retryRead<T>(r: Redis, op: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  let failingSince: number | undefined;
  for (;;) {
    try {
      return await op();
    } catch (error) {
      if (error instanceof fleetLibraries().redis.ErrorReply || !r.isOpen || signal?.aborted) throw error;
      failingSince ??= Date.now();
      if (Date.now() - failingSince > READ_RETRY_MS) throw error;
      await sleep(100, signal);
    }
  }
}

/**
 * A fleet of canonurl workers on BullMQ and one Redis: `submit` cuts the input into chunks (BullMQ
 * jobs that keep their input index), `work` runs a BullMQ worker resolving chunks with one canonurl
 * client, `results` yields every input's Outcome once, in input order, as chunks complete.
 *
 * @example
 * ```ts
 * const fleet = createFleet({ redis: "redis://127.0.0.1:6379" });
 * const { job } = await fleet.submit(["https://example.com/a", "https://example.com/b"]);
 * for await (const outcome of fleet.results(job)) console.log(outcome.index, outcome.ok);
 * await fleet.close();
 * ```
 */
export function createFleet(options: FleetOptions): Fleet {
  const settings: FleetSettings = fleetSettings(options);
  // bullmq and redis are optional peers: loaded here, and a missing one is an Error naming npm i.
  const {
    bullmq: { createNodeRedisClient, Queue, Worker },
    redis: { createClient: createRedisClient },
  } = fleetLibraries();
  let redis: Promise<Redis> | undefined;
  let redisTrouble = 0;
  let queue: BullMQ.Queue | undefined;
  const closers: (() => Promise<void>)[] = [];
  const opened: Redis[] = [];

  function commands(): Promise<Redis> {
    redis ??= (async () => {
      const client = createRedisClient({ url: settings.redis });
      // A lost connection reconnects by itself; the error event only must not crash the process.
      // Each loss is counted: a chunk that ran across one may hold failures that were the fleet's.
      client.on("error", () => redisTrouble++);
      client.on("reconnecting", () => redisTrouble++);
      try {
        await connectWithin(client, settings.redis, settings.connectTimeoutMs);
      } catch (error) {
        redis = undefined;
        throw error;
      }
      opened.push(client);
      closers.push(async () => {
        await client.close();
      });
      return client;
    })();
    return redis;
  }

  // BullMQ never closes a client it was handed: each one is closed here, after its user.
  const raws: Redis[] = [];
  function connection() {
    const raw = createRedisClient({ url: settings.redis });
    raw.on("error", () => {});
    raws.push(raw);
    return createNodeRedisClient(raw);
  }

  function getQueue(): BullMQ.Queue {
    if (queue === undefined) {
      const q = new Queue(settings.queue, { connection: connection() });
      q.on("error", () => {});
      queue = q;
      closers.push(() => q.close());
    }
    return queue;
  }

  async function storeChunk(data: ChunkData, outcomes: StoredOutcome[]): Promise<void> {
    const r = await commands();
    const keys = jobKeys(settings.queue, data.job);
    const failed = outcomes.filter((o) => !o.ok).length;
    const ttl = settings.resultTtlSeconds;
    // SET and HSET overwrite: a chunk run twice (a worker died after storing, before BullMQ heard
    // it finished) leaves one copy of each outcome, never two.
    await r
      .multi()
      .set(keys.chunk(data.chunk), JSON.stringify(outcomes), { EX: ttl })
      .hSet(keys.counts, String(data.chunk), `${outcomes.length},${failed}`)
      .expire(keys.counts, ttl)
      .del(keys.partial(data.chunk))
      .exec();
  }

  return {
    async submit(urls, init = {}) {
      const job = checkJobName(init.job ?? newJobName());
      const chunkSize = init.chunkSize ?? 100;
      if (!Number.isSafeInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
        throw new TypeError(`fleet.submit: chunkSize must be an integer from 1 to ${MAX_CHUNK_SIZE}`);
      }
      const r = await commands();
      const keys = jobKeys(settings.queue, job);
      const ttl = settings.resultTtlSeconds;
      // Idempotent for a job name (issue 23): a name submitted before answers at once with what it
      // holds and queues nothing, so a retried submit never doubles a job. Checked before the queue
      // is touched, so it never waits on BullMQ or the workers.
      const known = await r.hGetAll(keys.meta);
      if (known.chunkSize !== undefined) {
        return { job, count: Number(known.total ?? known.submitted ?? 0) };
      }
      const q = getQueue();
      await r.multi().hSet(keys.meta, { chunkSize, submitted: 0 }).expire(keys.meta, ttl).exec();
      let count = 0;
      let chunk = 0;
      let buffer: string[] = [];
      let chars = 0;
      let failed: Record<number, StoredError> | undefined;
      const flush = async (): Promise<void> => {
        const data: ChunkData = { job, chunk, start: count - buffer.length, urls: buffer };
        if (failed !== undefined) data.failed = failed;
        await q.add(job, data, {
          jobId: `${job}__${chunk}`,
          attempts: settings.attempts,
          backoff: { type: "exponential", delay: 1_000 },
          removeOnComplete: true,
          removeOnFail: { age: ttl },
        });
        await r.hSet(keys.meta, "submitted", count);
        chunk++;
        buffer = [];
        chars = 0;
        failed = undefined;
      };
      // Streamed: one chunk is held at a time, however long the input.
      for await (const item of urls as AsyncIterable<string | FailedInput>) {
        const url = item instanceof FailedInput ? item : String(item);
        const failure = typeof url === "string" ? tooLong(url) : url;
        const input = failure === undefined ? (url as string) : failure.input;
        if (failure !== undefined) {
          failed ??= {};
          failed[buffer.length] = encodeError(failure.error);
        }
        buffer.push(input);
        chars += input.length;
        count++;
        if (buffer.length === chunkSize || chars >= MAX_CHUNK_CHARS) await flush();
      }
      if (buffer.length > 0) await flush();
      await r.hSet(keys.meta, { total: count, chunks: chunk });
      return { job, count };
    },

    async work(init = {}) {
      const concurrency = init.concurrency ?? 8;
      if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 1000) {
        throw new TypeError("fleet.work: concurrency must be an integer from 1 to 1000");
      }
      const r = await commands();
      const clientOptions = settings.client;
      const inner =
        clientOptions.transport ??
        createPinnedTransport(clientOptions.ca === undefined ? {} : { ca: clientOptions.ca });
      const transport = limitHosts(inner, r, {
        limit: settings.hostLimit,
        prefix: hostPrefix(settings.queue),
        leaseMs: SLOT_LEASE_MS,
        maxPauseMs: 60_000,
      });
      const cache =
        clientOptions.cache ??
        redisCache(settings.redis, { prefix: `canonurl:fleet:${settings.queue}:cache:` });
      const client = createClient({ ...clientOptions, transport, cache });
      const lane = lanes(concurrency);
      const worker = new Worker<ChunkData>(
        settings.queue,
        async (job: Job<ChunkData>) => {
          const trouble = (): number => transport.redisFailures + redisTrouble;
          const failuresBefore = trouble();
          const crashed = job.attemptsMade > 0 || job.stalledCounter > 0;
          const outcomes = crashed
            ? await resolveTracked({
                client,
                r,
                key: jobKeys(settings.queue, job.data.job).partial(job.data.chunk),
                ttl: settings.resultTtlSeconds,
                data: job.data,
                lane,
                trouble,
              })
            : await resolveChunk(client, job.data, lane);
          // Redis failed under this chunk: an input that timed out waiting for its host slot
          // failed because of the fleet, not itself. The chunk runs again (BullMQ attempts).
          if (trouble() !== failuresBefore) {
            throw new Error("Redis was unavailable while the chunk ran; it runs again");
          }
          await storeChunk(job.data, outcomes);
        },
        {
          connection: connection(),
          concurrency: CHUNKS_PER_WORKER,
          stalledInterval: settings.stalledIntervalMs,
          lockDuration: settings.stalledIntervalMs,
          maxStalledCount: MAX_STALLS,
        },
      );
      worker.on("error", () => {});
      // Said once the worker's connections are up: the command line said "working" before it had
      // tried Redis, so a dead Redis printed a working line and then the error (issue 23).
      worker.waitUntilReady().then(
        () => {
          if (init.signal?.aborted !== true) init.onReady?.();
        },
        () => {},
      );
      // A chunk out of attempts still gets its outcomes, every input failing with the reason, so
      // `results` never waits for an input forever.
      worker.on("failed", (job, error) => {
        if (job === undefined || job.attemptsMade < (job.opts.attempts ?? 1)) return;
        const { start, urls } = job.data;
        const stored: StoredOutcome[] = urls.map((input, i) => ({
          index: start + i,
          input,
          ok: false,
          error: { ...encodeError(error), code: "internal" },
        }));
        storeChunk(job.data, stored).catch(() => {});
      });
      const drainMs = init.drainMs ?? DEFAULT_WORKER_DRAIN_MS;
      try {
        await new Promise<void>((resolve) => {
          if (init.signal?.aborted) return resolve();
          init.signal?.addEventListener("abort", () => resolve(), { once: true });
        });
      } finally {
        // Bounded, Redis or not (issue 23): the chunks in hand get drainMs to finish; past it the
        // worker lets go of them (BullMQ gives a chunk whose lock lapses to another worker) and
        // every client gets a short while to close before it is destroyed.
        // Whole: drainMs + CLOSE_MS at most.
        const started = Date.now();
        await bounded(worker.close(), drainMs);
        const forced = Date.now() - started >= drainMs;
        await bounded(
          Promise.all([
            forced ? worker.close(true) : Promise.resolve(),
            worker.disconnect(),
            client.close(),
            transport.close?.() ?? Promise.resolve(),
            clientOptions.cache === undefined ? cache.close() : Promise.resolve(),
          ]),
          CLOSE_MS,
        );
      }
    },

    async *results(job, init = {}) {
      checkJobName(job);
      const follow = init.follow ?? true;
      const r = await commands();
      const keys = jobKeys(settings.queue, job);
      const meta = await r.hGetAll(keys.meta);
      if (meta.chunkSize === undefined)
        throw new TypeError(`fleet.results: no job '${job}' (or its results expired)`);
      let next = 0;
      let wait = 10;
      for (;;) {
        // Chunks may be cut short (MAX_CHUNK_CHARS): the end is the chunk count, set last.
        const chunks = await retryRead(r, () => r.hGet(keys.meta, "chunks"), init.signal);
        if (chunks != null && next >= Number(chunks)) return;
        const batch = Array.from({ length: 16 }, (_, i) => keys.chunk(next + i));
        const texts = await retryRead(r, () => r.mGet(batch), init.signal);
        let got = 0;
        for (const text of texts) {
          if (text == null) break;
          for (const stored of JSON.parse(text) as StoredOutcome[]) yield decodeOutcome(stored);
          next++;
          got++;
        }
        if (got > 0) {
          wait = 10;
          continue;
        }
        if (!follow || init.signal?.aborted) return;
        await sleep(wait, init.signal);
        // Short waits: a reader that slept a second after a late chunk would add that second to
        // the run; an MGET a few times a second costs Redis nothing.
        wait = Math.min(wait * 2, 200);
      }
    },

    async progress(job) {
      checkJobName(job);
      const r = await commands();
      const keys = jobKeys(settings.queue, job);
      const [meta, counts] = await Promise.all([r.hGetAll(keys.meta), r.hGetAll(keys.counts)]);
      let done = 0;
      let failed = 0;
      for (const value of Object.values(counts)) {
        const [size, bad] = value.split(",");
        done += Number(size);
        failed += Number(bad);
      }
      return { total: Number(meta.total ?? meta.submitted ?? 0), done, failed };
    },

    async close() {
      // The clients get CLOSE_MS in all to end cleanly; one whose Redis is gone is destroyed then.
      await bounded(Promise.all(closers.splice(0).map((close) => close().catch(() => {}))), CLOSE_MS);
      for (const raw of [...raws.splice(0), ...opened.splice(0)]) {
        try {
          raw.destroy();
        } catch {
          // already closed by its user
        }
      }
      redis = undefined;
      queue = undefined;
    },
  };
}
