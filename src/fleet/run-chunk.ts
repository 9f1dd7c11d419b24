// How a worker runs a chunk: in its lanes, or, after a crash, with its progress in Redis.
import { randomUUID } from "node:crypto";
import type { createClient as createRedisClient } from "redis";
import type { Client } from "../resolve/client.js";
import { toCanonError } from "../resolve/http/to-canon-error.js";
import { isBlankLine } from "../url/blank-line.js";
import { blankOutcome } from "./blank-outcome.js";
import type { Lanes } from "./lanes.js";
import { encodeError, type StoredOutcome } from "./outcome-codec.js";

/**
 * What one BullMQ job carries: a chunk of inputs and where it starts in the whole input.
 *
 * @example
 * ```ts
 * const data: ChunkData = { job: "crawl", chunk: 3, start: 300, urls: ["https://a.test/"] };
 * ```
 */
export interface ChunkData {
  job: string;
  chunk: number;
  start: number;
  urls: string[];
  /** Inputs that failed at submit (too long to store): their number in the chunk -> the error. */
  failed?: Record<number, StoredError>;
}

type Redis = ReturnType<typeof createRedisClient>;

/**
 * A failure as a chunk stores it.
 *
 * @example
 * ```ts
 * const error: StoredError = { code: "invalid-url", name: "UrlError", message: "invalid URL" };
 * ```
 */
export type StoredError = { code: string; name: string; message: string };

/**
 * Suspicions (in flight at a worker's death; the second one alone in its process) before an input
 * fails alone.
 *
 * @example
 * ```ts
 * POISON_CRASHES; // 2
 * ```
 */
export const POISON_CRASHES = 2;

// One input's outcome, its error mapped as resolveMany maps it; a blank line is answered as
// `canonurl` answers it (blank, not a failure), without asking the client.
async function resolveInput(client: Client, input: string, index: number): Promise<StoredOutcome> {
  if (isBlankLine(input)) return blankOutcome(index, input);
  try {
    return { index, input, ok: true, result: await client.resolve(input) };
  } catch (error) {
    return { index, input, ok: false, error: encodeError(toCanonError(error, input)) };
  }
}

/**
 * A chunk's outcomes, each input in a lane of its worker. The chunks a worker runs at once share
 * its lanes: while one chunk's outcomes are written and the next chunk is fetched, the other
 * chunks keep every lane busy.
 *
 * @example
 * ```ts
 * const outcomes = await resolveChunk(client, job.data, lanes(16));
 * ```
 */
export async function resolveChunk(client: Client, data: ChunkData, lane: Lanes): Promise<StoredOutcome[]> {
  return Promise.all(
    data.urls.map((input, i) => {
      const failed = data.failed?.[i];
      if (failed !== undefined) return { index: data.start + i, input, ok: false, error: failed };
      return lane(() => resolveInput(client, input, data.start + i));
    }),
  );
}

/** What a tracked run of a chunk works with. */
export interface TrackedRun {
  client: Client;
  r: Redis;
  /** The chunk's progress hash (`keys.partial`). */
  key: string;
  /** Seconds the progress is kept. */
  ttl: number;
  data: ChunkData;
  lane: Lanes;
  /** Counts Redis failures so far: an outcome reached while it rose is not kept. */
  trouble: () => number;
}

/**
 * Runs a chunk that crashed before (its processor threw, or its worker process died: BullMQ saw it
 * stall) with its progress in Redis (`keys.partial`): each input is marked in flight before it
 * starts and its outcome kept when it ends. A run finds the inputs its predecessor left marked:
 * they were in flight when a worker died, and each gets one suspicion more. A suspect runs alone
 * (every lane of its worker, nothing else of that process in flight), so a worker dying then died
 * of it: at POISON_CRASHES suspicions it fails alone with code `internal` and is not tried again.
 * A poison input therefore runs at most POISON_CRASHES + 1 times (in its chunk, among the
 * chunk's rerun, alone), and every other input of its chunk gets its normal outcome.
 *
 * @example
 * ```ts
 * const outcomes = await resolveTracked({ client, r: redis, key: keys.partial(3), ttl, data: job.data, lane, trouble });
 * ```
 */
export async function resolveTracked(run: TrackedRun): Promise<StoredOutcome[]> {
  const { r, key } = run;
  // One rerun of a chunk at a time: BullMQ starts a second one when a busy worker renews its lock
  // late, and the first one's markers would then pass for deaths. A run owns the chunk while it
  // renews `owner`; one that stopped renewing for OWNER_MS is taken for dead.
  const owner = `${key}:owner`;
  const token = randomUUID();
  const until = Date.now() + 2 * OWNER_MS;
  for (;;) {
    const got = await r.set(owner, token, { NX: true, PX: OWNER_MS }).catch(() => "OK");
    if (got === "OK" || Date.now() > until) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const renew = setInterval(() => {
    r.eval(RENEW, { keys: [owner], arguments: [token, String(OWNER_MS)] }).catch(() => {});
  }, OWNER_MS / 4);
  try {
    return await rerun(run);
  } finally {
    clearInterval(renew);
    await r.eval(RELEASE, { keys: [owner], arguments: [token] }).catch(() => {});
  }
}

const OWNER_MS = 5_000;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

async function rerun({ client, r, key, ttl, data, lane, trouble }: TrackedRun): Promise<StoredOutcome[]> {
  const out: StoredOutcome[] = new Array(data.urls.length);
  const suspicions = new Map<number, number>();
  // Progress is a help, not a must: with Redis away the chunk simply starts over.
  const saved: Record<string, string> = await r.hGetAll(key).catch(() => ({}));
  const died: number[] = [];
  for (const [field, value] of Object.entries(saved)) {
    const [kind, n] = field.split(":");
    const i = Number(n);
    if (!Number.isSafeInteger(i) || i < 0 || i >= out.length) continue;
    if (kind === "done") out[i] = JSON.parse(value);
    else if (kind === "crash") suspicions.set(i, (suspicions.get(i) ?? 0) + Number(value));
    else if (kind === "run") died.push(i);
  }
  if (died.length > 0) {
    const update = r.multi();
    for (const i of died) {
      if (out[i] !== undefined) continue;
      const n = (suspicions.get(i) ?? 0) + 1;
      suspicions.set(i, n);
      update.hSet(key, `crash:${i}`, String(n));
    }
    for (const i of died) update.hDel(key, `run:${i}`);
    await update.exec().catch(() => {});
  }
  const one = async (i: number): Promise<void> => {
    const input = data.urls[i] as string;
    const index = data.start + i;
    await r
      .multi()
      .hSet(key, `run:${i}`, "1")
      .expire(key, ttl)
      .exec()
      .catch(() => {});
    const before = trouble();
    const outcome = await resolveInput(client, input, index);
    out[i] = outcome;
    // An outcome reached while Redis failed may be the fleet's failure: it is not kept for a rerun.
    const done = r.multi();
    if (trouble() === before) done.hSet(key, `done:${i}`, JSON.stringify(outcome));
    await done
      .hDel(key, `run:${i}`)
      .exec()
      .catch(() => {});
  };
  const suspects: number[] = [];
  const rest: number[] = [];
  for (let i = 0; i < out.length; i++) {
    if (out[i] !== undefined) continue;
    const input = data.urls[i] as string;
    const index = data.start + i;
    const failed = data.failed?.[i];
    const n = suspicions.get(i) ?? 0;
    if (failed !== undefined) out[i] = { index, input, ok: false, error: failed };
    else if (n >= POISON_CRASHES) {
      const message = `a worker process died ${n} times while resolving this input; it is not tried again`;
      out[i] = { index, input, ok: false, error: { code: "internal", name: "Error", message } };
    } else if (n > 0) suspects.push(i);
    else rest.push(i);
  }
  for (const i of suspects) await lane(() => one(i), true);
  await Promise.all(rest.map((i) => lane(() => one(i))));
  return out;
}
