import { parseArgs } from "node:util";
import { createClient } from "../../resolve/client.js";
import type { ClientOptions } from "../../resolve/types.js";
import { isLoopbackBind } from "../../serve/browser-guard.js";
import { DEFAULT_DRAIN_MS, type RunningServe, startServe } from "../../serve/start-serve.js";
import { CACHE_FLAGS, cacheFromFlags } from "../flags/cache-flags.js";
import { NETWORK_POLICY_FLAGS, networkPolicyFromFlags } from "../flags/network-flags.js";
import { type CliIo, type ExitCode, UsageError, writeOut } from "../io/io.js";
import { NETWORK_FLAGS, networkOptionsFromFlags } from "./network-mode.js";
import { SERVE_USAGE } from "./usage.js";

function integerFlag(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got '${value}'`);
  }
  return n;
}

/**
 * `canonurl serve`: the HTTP service of api.md §9 until SIGTERM or SIGINT, which stop accepting,
 * let the requests in flight finish, and return 0. Prints `listening on http://HOST:PORT` on
 * stderr once ready. `signals` is injectable so tests can drive the shutdown in-process.
 *
 * @example
 * ```ts
 * await runServe(["--port", "0"], io); // resolves 0 after SIGTERM
 * ```
 */
export async function runServe(
  args: readonly string[],
  io: CliIo,
  signals: NodeJS.EventEmitter = process,
): Promise<ExitCode> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "allow-resolve": { type: "boolean" },
      token: { type: "string" },
      "max-body-bytes": { type: "string" },
      "max-batch": { type: "string" },
      "max-in-flight": { type: "string" },
      "request-timeout": { type: "string" },
      "drain-timeout": { type: "string" },
      ...NETWORK_FLAGS,
      ...NETWORK_POLICY_FLAGS,
      ...CACHE_FLAGS,
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    await writeOut(io.stdout, SERVE_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments, got '${positionals[0]}'`);
  const { options: network, concurrency } = networkOptionsFromFlags(values);
  const client: ClientOptions = { ...network, ...networkPolicyFromFlags(values) };
  // A token in the environment stays out of `ps` output; the flag wins when both are given.
  const token = values.token ?? process.env.CANONURL_SERVE_TOKEN;
  if (token !== undefined && (token === "" || /\s/.test(token))) {
    throw new UsageError("--token must be a non-empty string without spaces");
  }
  const limits = {
    maxBodyBytes: integerFlag(values["max-body-bytes"], "max-body-bytes", 1, 2 ** 30),
    maxBatch: integerFlag(values["max-batch"], "max-batch", 1, 10_000_000),
    maxInFlight: integerFlag(values["max-in-flight"], "max-in-flight", 1, 100_000),
    requestTimeoutMs: integerFlag(values["request-timeout"], "request-timeout", 1, 2_147_483_647),
  };
  // The cache flags mean what they mean for the command line; a service that cannot resolve
  // opens no cache (and creates no file).
  const allowResolve = values["allow-resolve"] === true;
  const { cache, hostConcurrency, logger } = allowResolve
    ? await cacheFromFlags(values, process.env, (m) => io.stderr.write(m))
    : { cache: undefined, hostConcurrency: undefined, logger: undefined };
  if (cache !== undefined) client.cache = cache;
  if (logger !== undefined) client.logger = logger;
  if (hostConcurrency !== undefined)
    (client as { hostConcurrency?: number }).hostConcurrency = hostConcurrency;
  // Checked once here: a bad combination is a usage error at start, not a 400 on every request.
  try {
    await createClient(client).close();
  } catch (error) {
    await cache?.close();
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  const drainMs = integerFlag(values["drain-timeout"], "drain-timeout", 0, 3_600_000) ?? DEFAULT_DRAIN_MS;
  const host = values.host ?? "127.0.0.1";
  let running: RunningServe;
  try {
    running = await startServe({
      host,
      port: integerFlag(values.port, "port", 0, 65535) ?? 8787,
      allowResolve,
      ...(token === undefined ? {} : { token }),
      client,
      resolveConcurrency: concurrency,
      ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
      log: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (error) {
    await cache?.close();
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
      io.stderr.write(`canonurl: cannot listen: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
  io.stderr.write(`listening on ${running.url}\n`);
  if (token === undefined && !isLoopbackBind(host)) {
    io.stderr.write(
      `canonurl serve: warning: listening on ${host}, beyond loopback, without --token: anyone who can reach it may use it${allowResolve ? ", and make it fetch URLs (--allow-resolve)" : ""}\n`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      signals.off("SIGTERM", stop);
      signals.off("SIGINT", stop);
      io.stderr.write("draining: no new connections, waiting for requests in flight\n");
      void running
        .drain(drainMs)
        .then(() => cache?.close())
        .then(resolve);
    };
    signals.on("SIGTERM", stop);
    signals.on("SIGINT", stop);
  });
  return 0;
}
