import { createHash, randomUUID } from "node:crypto";
import type { Transport, TransportRequest, TransportResponse } from "../resolve/http/transport.js";

/** The few node-redis calls the limit needs, so a test can see what it sends. */
export interface HostLimitRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
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
   * How long a slot outlives the last renewal by its holder, which renews every slot it holds
   * every `leaseMs / 5`. Bounds how long a host stays short of a slot nobody holds: one whose
   * worker was killed (SIGKILL), or one that a Redis restart brought back from its snapshot after
   * its holder had given it back to the server that went away.
   */
  leaseMs: number;
  /** Longest Retry-After pause (429/503) honoured for the whole fleet. */
  maxPauseMs: number;
}

// One atomic step per attempt: drop the slots whose lease ran out (their holder died), refuse while
// the host is paused by a Retry-After, else take a slot if fewer than ARGV[2] are held. A sorted set
// scored by lease end, not INCR/DECR: a counter a killed worker incremented would stay high forever.
// Returns the slots held after taking one (0: none taken), so the taker knows whether others may
// be short of slots.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local held = redis.call('ZCARD', KEYS[1])
if held < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return held + 1
end
return 0`;

// Pushes the lease end (ARGV[1]) of the slots a process still holds (ARGV[3..]). A held slot missing
// from the set (Redis restarted from a snapshot taken before the slot was taken, or the slot
// expired while its worker was stalled) is put back: its request is in flight, so the set counts it
// again. Returns 0, never a slot count.
const RENEW = `
for i = 3, #ARGV do redis.call('ZADD', KEYS[1], ARGV[1], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0`;

type Script = (redis: HostLimitRedis, options: { keys: string[]; arguments: string[] }) => Promise<unknown>;

// A script run by its SHA-1 (EVALSHA), sent whole (EVAL) only when Redis does not hold it: after
// a restart or SCRIPT FLUSH it answers NOSCRIPT, and the EVAL that follows caches it again. EVAL
// wrote ACQUIRE's ~400 characters with every slot taken (8 MB per 20,000). Measured against a
// local Redis, 20,000 ACQUIREs 100 at a time, two rounds interleaved (5 Dec 2026): the client's
// CPU 349 / 196 ms by EVAL, 211 / 136 ms by EVALSHA; Redis's own time the same either way
// (~5 µs a call: it caches a script by its text, so EVAL cost it no recompiling).
function script(body: string): Script {
  const sha1 = createHash("sha1").update(body).digest("hex");
  return (redis, options) =>
    redis.evalSha(sha1, options).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith("NOSCRIPT")) return redis.eval(body, options);
      throw error;
    });
}
const runAcquire = script(ACQUIRE);
const runRenew = script(RENEW);

// A slot taken from Redis serves more than one request of this process before it goes back: the
// Redis round trip to take a slot is most of what the limit costs a request. Bounded, so other
// workers get their turn: a slot starts requests for at most REUSE_MS after it was taken and at
// most MAX_USES of them; a Retry-After pause another worker saw stops this process's slots of the
// host within REUSE_MS.
const REUSE_MS = 250;
const MAX_USES = 32;
// A slot with no request waiting for it is kept this long for the next request to its host, but
// only while the host had slots to spare when it was taken (at most half of the limit held): when
// the host is busy, a kept slot would be one another worker waits for.
const IDLE_MS = 50;
// Waiting for a full host: one Redis poll per host and process at a time, after short growing
// waits with jitter (a freed slot is taken within a few ms without the pollers moving in lock step).
const FIRST_WAIT_MS = 1;
const LONGEST_WAIT_MS = 16;

interface Slot {
  member: string;
  takenAt: number;
  uses: number;
  spare: boolean;
  idleSince: number;
}

interface Waiter {
  give(slot: Slot): void;
}

/**
 * The slots and waiters of one host in this process, kept while it has any: a worker that meets
 * millions of hosts holds gates for those in use only.
 */
interface Gate {
  /** Requests of this process waiting for one of the host's slots or holding one. */
  busy: number;
  /**
   * The members of the slots this process took and has not given back, in use or idle (so the
   * gate is kept while any is held: a held slot is a busy request's or an idle one).
   */
  held: Set<string>;
  idle: Slot[];
  /** Until when a Retry-After this process saw pauses the host (its slots go back meanwhile). */
  pausedUntil: number;
  waiters: Waiter[];
  polling: boolean;
  sweep: ReturnType<typeof setTimeout> | undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
 * fleet: each request holds a slot of a Redis sorted set (one per host) while it is sent and read.
 * A slot is taken with one atomic script and, once its request is done, handed to the next request
 * of this process waiting for that host (or kept a moment for one) before it goes back to Redis,
 * so most requests cost no Redis round trip; requests waiting for a full host wait in this process,
 * one of them polling Redis. A 429 or 503 with a Retry-After pauses the host for every worker
 * (capped at `maxPauseMs`). Slots are leased: a holder renews the slots it holds, and a slot
 * nobody renews (its worker died, or a Redis restart restored it) expires after `leaseMs`.
 * `hostsKept` counts the hosts it keeps state for: a request waiting or in flight, or a slot kept
 * for the next one; a host with none is forgotten.
 *
 * @example
 * ```ts
 * const transport = limitHosts(createPinnedTransport(), redis, { limit: 4, prefix: "canonurl:fleet:q:", leaseMs: 5_000, maxPauseMs: 5_000 });
 * ```
 */
export function limitHosts(
  inner: Transport,
  redis: HostLimitRedis,
  options: HostLimitOptions,
): Transport & { readonly redisFailures: number; readonly hostsKept: number } {
  const { limit, prefix, leaseMs, maxPauseMs } = options;
  let redisFailures = 0;
  const gates = new Map<string, Gate>();
  const key = (host: string): string => `${prefix}host:${host}`;
  let renewer: ReturnType<typeof setInterval> | undefined;

  function gateOf(host: string): Gate {
    let gate = gates.get(host);
    if (gate === undefined) {
      gate = {
        busy: 0,
        held: new Set(),
        idle: [],
        pausedUntil: 0,
        waiters: [],
        polling: false,
        sweep: undefined,
      };
      gates.set(host, gate);
    }
    return gate;
  }

  // Drops a gate left with nothing of this process. Its pausedUntil goes with it: the pause lives
  // on in Redis, and no slot of this process is left to carry a request into it.
  function forget(host: string, gate: Gate): void {
    if (gate.busy > 0 || gate.idle.length > 0 || gate.sweep !== undefined || gate.polling) return;
    if (gates.get(host) === gate) gates.delete(host);
  }

  function usable(slot: Slot, gate: Gate): boolean {
    const now = Date.now();
    return slot.uses < MAX_USES && now - slot.takenAt < REUSE_MS && now >= gate.pausedUntil;
  }

  function giveBack(host: string, slot: Slot): void {
    gates.get(host)?.held.delete(slot.member);
    // Not awaited: the request is done; the slot stays taken one round trip longer, never shorter.
    redis.zRem(key(host), slot.member).catch(() => {});
  }

  async function take(host: string): Promise<Slot | undefined> {
    const member = randomUUID();
    const now = Date.now();
    try {
      const held = Number(
        await runAcquire(redis, {
          keys: [key(host), `${prefix}pause:${host}`],
          arguments: [String(now), String(limit), String(now + leaseMs), member, String(leaseMs * 2)],
        }),
      );
      if (held > 0) {
        gateOf(host).held.add(member);
        if (renewer === undefined) {
          renewer = setInterval(renew, leaseMs / 5);
          renewer.unref?.();
        }
        return { member, takenAt: now, uses: 0, spare: held * 2 <= limit, idleSince: 0 };
      }
    } catch {
      // Redis is away (restarting, unreachable): wait for it within the request's deadline. The
      // count tells the chunk that its failures may be the fleet's, not the inputs'.
      redisFailures++;
    }
    return undefined;
  }

  // Every held slot's lease, pushed one lease past now. A failed renewal is not counted as Redis
  // trouble: the next one, a fifth of a lease later, tries again.
  // Gates are kept for the hosts in use only (forget), so this visits what is held, not every host
  // ever seen.
  function renew(): void {
    const end = String(Date.now() + leaseMs);
    let holding = false;
    for (const [host, gate] of gates) {
      if (gate.held.size === 0) continue;
      holding = true;
      runRenew(redis, { keys: [key(host)], arguments: [end, String(leaseMs * 2), ...gate.held] }).catch(
        () => {},
      );
    }
    if (!holding) {
      clearInterval(renewer);
      renewer = undefined;
    }
  }

  // One poller per host while requests of this process wait for it.
  async function poll(host: string, gate: Gate): Promise<void> {
    gate.polling = true;
    let wait = FIRST_WAIT_MS;
    try {
      while (gate.waiters.length > 0) {
        const slot = await take(host);
        if (slot !== undefined) {
          release(host, slot, false);
          wait = FIRST_WAIT_MS;
          continue;
        }
        await sleep(wait + Math.random() * wait);
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
      }
    } finally {
      gate.polling = false;
      forget(host, gate);
    }
  }

  function sweepLater(host: string, gate: Gate): void {
    if (gate.sweep !== undefined) return;
    gate.sweep = setTimeout(() => {
      gate.sweep = undefined;
      const now = Date.now();
      const keep: Slot[] = [];
      for (const slot of gate.idle) {
        if (now - slot.idleSince < IDLE_MS && usable(slot, gate)) keep.push(slot);
        else giveBack(host, slot);
      }
      gate.idle = keep;
      if (keep.length > 0) sweepLater(host, gate);
      else forget(host, gate);
    }, IDLE_MS);
    gate.sweep.unref?.();
  }

  // A slot whose request is done (or fresh from Redis): to the first waiter, kept idle, or back.
  function release(host: string, slot: Slot, used: boolean): void {
    if (used) slot.uses++;
    const gate = gateOf(host);
    const waiter = usable(slot, gate) ? gate.waiters.shift() : undefined;
    if (waiter !== undefined) waiter.give(slot);
    else if (!usable(slot, gate) || !slot.spare) giveBack(host, slot);
    else {
      slot.idleSince = Date.now();
      gate.idle.push(slot);
      sweepLater(host, gate);
    }
  }

  async function acquire(host: string, gate: Gate, signal: AbortSignal): Promise<Slot> {
    signal.throwIfAborted();
    while (gate.idle.length > 0) {
      const slot = gate.idle.pop() as Slot;
      if (usable(slot, gate)) return slot;
      giveBack(host, slot);
    }
    if (gate.waiters.length === 0) {
      const slot = await take(host);
      if (slot !== undefined) return slot;
    }
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = {
        give(slot) {
          signal.removeEventListener("abort", stop);
          resolve(slot);
        },
      };
      function stop(): void {
        const at = gate.waiters.indexOf(waiter);
        if (at >= 0) gate.waiters.splice(at, 1);
        reject(signal.reason);
      }
      signal.addEventListener("abort", stop, { once: true });
      gate.waiters.push(waiter);
      if (!gate.polling) void poll(host, gate);
    });
  }

  return {
    get redisFailures() {
      return redisFailures;
    },
    get hostsKept() {
      return gates.size;
    },
    async request(request: TransportRequest): Promise<TransportResponse> {
      const host = request.url.host;
      // Counted busy from here to the slot's release, so the gate stays the host's one gate.
      const gate = gateOf(host);
      gate.busy++;
      let slot: Slot;
      try {
        slot = await acquire(host, gate, request.signal);
      } catch (error) {
        gate.busy--;
        forget(host, gate);
        throw error;
      }
      let released = false;
      const done = (): void => {
        if (released) return;
        released = true;
        release(host, slot, true);
        gate.busy--;
        forget(host, gate);
      };
      let response: TransportResponse;
      try {
        response = await inner.request(request);
      } catch (error) {
        done();
        throw error;
      }
      const pauseMs = Math.min(retryAfterMs(response), maxPauseMs);
      if (pauseMs > 0) {
        await redis.set(`${prefix}pause:${host}`, "1", { PX: pauseMs }).catch(() => {});
        // No slot of this process carries a request into the pause: each goes back when done.
        gate.pausedUntil = Math.max(gate.pausedUntil, Date.now() + pauseMs);
        for (const idle of gate.idle.splice(0)) giveBack(host, idle);
      }
      return {
        status: response.status,
        headers: response.headers,
        body: response.body,
        async dispose() {
          try {
            await response.dispose();
          } finally {
            done();
          }
        },
      };
    },
    async close() {
      clearInterval(renewer);
      renewer = undefined;
      for (const [host, gate] of gates) {
        if (gate.sweep !== undefined) clearTimeout(gate.sweep);
        for (const slot of gate.idle.splice(0)) giveBack(host, slot);
      }
      await inner.close?.();
    },
  };
}
