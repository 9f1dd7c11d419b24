// Real services the tests and benchmarks talk to, started and stopped by the test command itself
// (architecture.md, "Testing without the internet"). Only redis-server so far: the Debian package,
// on a free loopback port, with persistence off so nothing is left on disk.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

const INSTALL_COMMAND = "apt-get update && apt-get install -y redis-server";

/** Absolute path of an executable on PATH (or in /usr/sbin, where Debian may put servers), or null. */
function which(name) {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/sbin", "/usr/bin"];
  for (const dir of dirs) {
    if (dir !== "" && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * The redis-server binary, installed from Debian's packages when it is missing and we may
 * (root on Debian). Returns `{ path }` or `{ error }` with the one command a person must run.
 */
export function ensureRedisServer({ log = console.error } = {}) {
  const found = which("redis-server");
  if (found !== null) return { path: found };
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && existsSync("/etc/debian_version")) {
    log(`test-services: redis-server is missing; installing it: ${INSTALL_COMMAND}`);
    const r = spawnSync("sh", ["-c", `(${INSTALL_COMMAND}) >/dev/null`], {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    const installed = which("redis-server");
    if (r.status === 0 && installed !== null) return { path: installed };
    return { error: `installing redis-server failed (exit ${r.status}); run: ${INSTALL_COMMAND}` };
  }
  return { error: `redis-server is not installed; run as root: ${INSTALL_COMMAND}` };
}

/**
 * A loopback port nothing listens on right now (redis-server does not accept --port 0), chosen
 * below the kernel's ephemeral range. Tests stop a Redis and start it again on its port, and a port
 * from that range (what listen(0) hands out) can be taken while the server is down: by another
 * test's listen(0), by any outgoing connection's source port, or by a client reconnecting to that
 * very port, which Linux may give the port itself as its source so that it connects to itself
 * (TCP simultaneous open; measured here: 1 in about 7,600 refused connects to an even port). The
 * restart then fails with "Address already in use". No port below the range is handed out that way.
 */
export async function freePort() {
  const low = ephemeralLow();
  if (low - FIRST_PORT < 1_000) return ephemeralPort();
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * (low - FIRST_PORT));
    if (await canListen(port)) return port;
  }
  return ephemeralPort();
}

// Below the registered ports most local services use (Redis's 6379, 8080, ...).
const FIRST_PORT = 10_000;

// The first port of the ephemeral range (Linux; 32768 elsewhere, the usual start).
function ephemeralLow() {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function ephemeralPort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(address.port));
    });
  });
}

/** Resolves once a PING on the port answers PONG; rejects after `timeoutMs`. */
function waitForPong(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection({ host: "127.0.0.1", port });
      let answer = "";
      const retry = () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server on port ${port} did not answer PING`));
        else setTimeout(attempt, 25);
      };
      socket.setTimeout(500, retry);
      socket.on("error", retry);
      socket.on("connect", () => socket.write("PING\r\n"));
      socket.on("data", (chunk) => {
        answer += chunk.toString("latin1");
        if (answer.startsWith("+PONG")) {
          socket.destroy();
          resolve();
        } else if (answer.includes("\r\n")) retry(); // -LOADING while it starts: ask again
      });
    };
    attempt();
  });
}

/**
 * Starts a redis-server of our own on 127.0.0.1 (a given port, else a free one), persistence off.
 * With `dir`, it works in that directory (the caller's, kept on stop) and loads the dump.rdb a
 * `SAVE` left there: a test restarts Redis with its data this way.
 * Returns `{ url, port, pid, stop() }`; `stop()` ends it and waits for its exit. Retries on a fresh
 * port when another process took the free one between our probe and redis binding it.
 */
export async function startRedisServer({ path, port: wanted, dir: kept } = {}) {
  const binary = path ?? ensureRedisServer().path;
  if (binary === undefined) throw new Error(ensureRedisServer().error);
  for (let attempt = 0; ; attempt++) {
    const port = wanted ?? (await freePort());
    const dir = kept ?? mkdtempSync(join(tmpdir(), "canonurl-redis-"));
    const child = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (c) => {
      output = (output + c).slice(-4000);
    });
    child.stderr.on("data", (c) => {
      output = (output + c).slice(-4000);
    });
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const early = exited.then((e) => {
      throw new Error(`redis-server exited (${e.code ?? e.signal}) before answering: ${output.trim()}`);
    });
    try {
      await Promise.race([waitForPong(port, 10_000), early]);
    } catch (error) {
      child.kill("SIGKILL");
      await exited;
      if (kept === undefined) rmSync(dir, { recursive: true, force: true });
      if (wanted === undefined && attempt < 3 && /already in use/i.test(output)) continue;
      throw error;
    }
    early.catch(() => {}); // a later exit is stop()'s business, not an unhandled rejection
    let stopped;
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      pid: child.pid,
      stop() {
        stopped ??= (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill("SIGTERM");
            const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
            await exited;
            clearTimeout(timer);
          }
          if (kept === undefined) rmSync(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  }
}
