// `canonurl serve` under 80 clients that post a batch and never read its answer (issue 23): when
// every request slot is held, how long /healthz stays refused, and when it answers again. The
// service is the real command (`dist/cli/bin.js serve --port 0`, its default limits) in a child
// process; the 80 clients and the /healthz probe share this process's loop, which does nothing
// else. Loopback only, on the port the OS picks. The findings behind the design are in
// bench/README.md ("The serve-lockout group").
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { resolveServeOptions } from "../src/serve/serve-options.js";
import { WRITE_GRACE_MS } from "../src/serve/start-serve.js";

const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));

/** Clients that never read, more than the default 64 request slots. */
export const LOCKOUT_CLIENTS = 80;
/** Inputs per batch: the default `--max-batch`. */
const BATCH = 10_000;
/** Path characters per URL: long enough that the answer overruns the loopback buffers. */
const PATH_CHARS = 300;
/** Time between two /healthz probes. */
const PROBE_MS = 50;
/**
 * A probe not answered within this is "blocked": the service's loop is busy (each admitted batch
 * costs tens of ms of one core before its socket is full), so /healthz is not refused, just not
 * answered yet. A probe that waited for its answer would hide the 429s and 200s meanwhile.
 */
const PROBE_TIMEOUT_MS = 1000;

const DEFAULTS = resolveServeOptions();

/** One run's figures: times are ms from the moment the clients start connecting. */
export interface LockoutRun {
  /** The extra `canonurl serve` flags of the run (none: the defaults). */
  flags: string[];
  /** The deadline the run's service applies, and its request slots. */
  deadlineMs: number;
  slots: number;
  /** The first probe answered 429: every slot was held (NaN: they never all were at once). */
  fullAtMs: number;
  /** The first probe answered 200 after that (NaN: not within twice the deadline). */
  freeAtMs: number;
  /** While the slots filled: probes answered 200, and probes not answered within PROBE_TIMEOUT_MS. */
  fillingAnswered: number;
  fillingBlocked: number;
  /** While every slot was held: probes refused with 429, and probes not answered in time. */
  heldRefused: number;
  heldBlocked: number;
  /** Probes that failed otherwise or answered anything else (0 in a clean run). */
  probeFaults: number;
  /** The slowest probe that was answered, and the largest gap between two probes starting. */
  slowestProbeMs: number;
  largestProbeGapMs: number;
  /**
   * The 80 clients by the status line the service answered them: 200 held a slot, 429 was
   * refused, 408 held a slot but the service's loop did not read its body before the deadline.
   */
  clientStatuses: Record<string, number>;
  /** Clients answered 200 whose connection the service closed before the answer's end. */
  clientsCutOff: number;
  /**
   * Clients answered 200 whose answer was whole: past the deadline the inputs not done answer
   * `timeout` in far fewer bytes, and some answers then fit in the loopback buffers. Their slot is
   * freed at the deadline all the same, as the answer ends.
   */
  clientsWhole: number;
  /** Bytes of answer the slot holders had been sent when they were cut off: least and most. */
  bytesBeforeCut: { min: number; max: number };
}

/** What {@link benchServeLockout} measured. */
export interface LockoutResult {
  clients: number;
  /** What a slot holder's connection is given past its deadline before it is destroyed. */
  writeGraceMs: number;
  /** Bytes of one batch (NDJSON) and of its whole answer, read once by a client that reads. */
  bodyBytes: number;
  answerBytes: number;
  /** The kernel's loopback buffer limits, bytes: what a non-reading client's answer must exceed. */
  tcpWmemMax: number;
  tcpRmemDefault: number;
  runs: LockoutRun[];
}

function sysctl(name: string, field: number): number {
  try {
    return Number(readFileSync(`/proc/sys/net/ipv4/${name}`, "utf8").trim().split(/\s+/)[field]);
  } catch {
    return Number.NaN;
  }
}

async function startService(flags: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", ...flags], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(stderr);
      if (listening !== null) resolve(listening[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`canonurl serve exited with ${code}: ${stderr}`)));
  });
  return { child, url };
}

async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  await exited;
}

/** A client that sends the whole request and never reads: its socket stays paused. */
interface Stalled {
  socket: Socket;
  /** What it had been sent, read once it resumes at the end. */
  received: Buffer[];
  closed: Promise<void>;
}

function stalledClient(port: number, request: Buffer): Stalled {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.pause();
  // One Buffer: a string would be encoded on this loop, per client (see the top of the file).
  socket.write(request);
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, received, closed };
}

/** A probe's answer: its status (0: not answered within PROBE_TIMEOUT_MS; -1: an error) and time. */
async function probe(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  let status: number;
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    status = response.status;
  } catch (error) {
    status = (error as Error).name === "TimeoutError" ? 0 : -1;
  }
  return { status, ms: performance.now() - started };
}

async function oneRun(flags: string[], deadlineMs: number, request: Buffer): Promise<LockoutRun> {
  const { child, url } = await startService(flags);
  try {
    if ((await probe(url)).status !== 200) throw new Error("the service does not answer /healthz");
    const port = Number(new URL(url).port);
    const started = performance.now();
    const clients = Array.from({ length: LOCKOUT_CLIENTS }, () => stalledClient(port, request));
    let fullAtMs = Number.NaN;
    let freeAtMs = Number.NaN;
    const counts = { fillingAnswered: 0, fillingBlocked: 0, heldRefused: 0, heldBlocked: 0, probeFaults: 0 };
    let slowestProbeMs = 0;
    let largestProbeGapMs = 0;
    let lastProbe = started;
    // Two phases: until the first 429 (every slot held; the slots fill one admitted request at a
    // time, see the README), then until the first 200. The first is bounded by the deadline: past
    // it the first slots free themselves, so if they were not all held by then they never are.
    for (;;) {
      const now = performance.now();
      const full = !Number.isNaN(fullAtMs);
      if (now - started > (full ? 2 * deadlineMs + 30_000 : deadlineMs + 30_000)) break;
      largestProbeGapMs = Math.max(largestProbeGapMs, now - lastProbe);
      lastProbe = now;
      const { status, ms } = await probe(url);
      if (status > 0) slowestProbeMs = Math.max(slowestProbeMs, ms);
      if (status === 200) {
        if (full) {
          freeAtMs = now - started;
          break;
        }
        counts.fillingAnswered++;
      } else if (status === 429) {
        if (!full) fullAtMs = now - started;
        counts.heldRefused++;
      } else if (status === 0) {
        if (full) counts.heldBlocked++;
        else counts.fillingBlocked++;
      } else counts.probeFaults++;
      await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
    }
    // What each client was answered: resume and read what its socket holds. The slot holders'
    // connections were destroyed by the service and the refused ones end at its keep-alive
    // timeout (5 s); reading some 250 MB back on this loop takes seconds, so wait for the ends.
    for (const c of clients) c.socket.resume();
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(clients.map((c) => c.closed)),
      new Promise((resolve) => {
        waited = setTimeout(resolve, 20_000);
      }),
    ]);
    clearTimeout(waited);
    const clientStatuses: Record<string, number> = {};
    let clientsCutOff = 0;
    let clientsWhole = 0;
    let min = Number.POSITIVE_INFINITY;
    let max = 0;
    for (const c of clients) {
      const text = Buffer.concat(c.received);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text.subarray(0, 16).toString("latin1"))?.[1] ?? "none";
      clientStatuses[status] = (clientStatuses[status] ?? 0) + 1;
      // A cut answer never reaches its chunked encoding's last chunk.
      const whole = text.subarray(-5).equals(Buffer.from("0\r\n\r\n"));
      if (status === "200" && whole) clientsWhole++;
      if (status === "200" && c.socket.destroyed && !whole) {
        clientsCutOff++;
        min = Math.min(min, text.byteLength);
        max = Math.max(max, text.byteLength);
      }
      c.socket.destroy();
    }
    await Promise.all(clients.map((c) => c.closed));
    return {
      flags,
      deadlineMs,
      slots: DEFAULTS.maxInFlight,
      fullAtMs,
      freeAtMs,
      ...counts,
      slowestProbeMs,
      largestProbeGapMs,
      clientStatuses,
      clientsCutOff,
      clientsWhole,
      bytesBeforeCut: { min: clientsCutOff === 0 ? 0 : min, max },
    };
  } finally {
    await stopService(child);
  }
}

/**
 * Runs the lockout bench: the defaults (64 slots, 60 s deadline), then `--request-timeout`
 * `BENCH_LOCKOUT_SHORT_MS` (default 5000) for comparison.
 *
 * @example
 * ```ts
 * const r = await benchServeLockout();
 * console.log(r.runs.map((run) => run.freeAtMs));
 * ```
 */
export async function benchServeLockout(): Promise<LockoutResult> {
  const short = Number(process.env.BENCH_LOCKOUT_SHORT_MS ?? 5000);
  const body = Buffer.from(
    Array.from(
      { length: BATCH },
      (_, i) => `${JSON.stringify({ url: `http://example.test/${"p".repeat(PATH_CHARS)}/${i}` })}\n`,
    ).join(""),
  );
  const head = Buffer.from(
    `POST /v1/normalize HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${body.byteLength}\r\n\r\n`,
  );
  const request = Buffer.concat([head, body]);

  // The whole answer, read by a client that reads: it must be larger than the loopback buffers
  // hold, or the service finishes writing it and frees the slot whether the client reads or not.
  const { child, url } = await startService([]);
  let answerBytes: number;
  try {
    const response = await fetch(`${url}/v1/normalize`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body,
    });
    if (response.status !== 200) throw new Error(`the batch was answered ${response.status}`);
    answerBytes = (await response.arrayBuffer()).byteLength;
  } finally {
    await stopService(child);
  }

  const runs: LockoutRun[] = [];
  runs.push(await oneRun([], DEFAULTS.requestTimeoutMs, request));
  runs.push(await oneRun(["--request-timeout", String(short)], short, request));
  return {
    clients: LOCKOUT_CLIENTS,
    writeGraceMs: WRITE_GRACE_MS,
    bodyBytes: body.byteLength,
    answerBytes,
    tcpWmemMax: sysctl("tcp_wmem", 2),
    tcpRmemDefault: sysctl("tcp_rmem", 1),
    runs,
  };
}
