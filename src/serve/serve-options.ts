import type { ClientOptions } from "../resolve/types.js";
import { LOOPBACK_HOST_NAMES } from "./browser-guard.js";

/**
 * Options of {@link createServeApp} and {@link startServe}. Every field is optional; the defaults
 * suit one machine's loopback service.
 *
 * @example
 * ```ts
 * const app = createServeApp({ allowResolve: true, token: "s3cret", maxInFlight: 32 });
 * ```
 */
export interface ServeOptions {
  /** Answer POST /v1/resolve (403 otherwise). @default false */
  allowResolve?: boolean;
  /** Require `Authorization: Bearer <token>` on /v1/resolve. @default none */
  token?: string;
  /** Network policy and limits of every resolution (allowedNetworks, allowedPorts, resolver, …). Clients cannot change them. @default {} */
  client?: ClientOptions;
  /** URLs one resolve request resolves at once. @default 8 */
  resolveConcurrency?: number;
  /** Largest request body. @default 4194304 (4 MiB) */
  maxBodyBytes?: number;
  /** Most inputs in one batch. @default 10000 */
  maxBatch?: number;
  /** Requests in flight at once; the next one gets 429. @default 64 */
  maxInFlight?: number;
  /** Deadline of one request; a batch past it answers `timeout` for the inputs not yet done. @default 60000 */
  requestTimeoutMs?: number;
  /** Directory of the built playground (index.html, playground.js, playground.css). @default next to this module */
  assetsDir?: string;
  /** Where request logs go (one line each, host names only, never full URLs). @default none */
  log?: (line: string) => void;
  /**
   * Host names the `Host` header may carry (a request naming another is refused with 403, which
   * stops DNS rebinding); `null` accepts any. {@link startServe} sets the loopback names and the
   * bind address for a loopback bind, and `null` for any other bind.
   * @default ["localhost", "127.0.0.1", "[::1]"]
   */
  allowedHosts?: readonly string[] | null;
}

/** {@link ServeOptions} with every default filled in. */
export interface ResolvedServeOptions {
  readonly allowResolve: boolean;
  readonly token: string | null;
  readonly client: ClientOptions;
  readonly resolveConcurrency: number;
  readonly maxBodyBytes: number;
  readonly maxBatch: number;
  readonly maxInFlight: number;
  readonly requestTimeoutMs: number;
  readonly assetsDir: string | null;
  readonly log: (line: string) => void;
  readonly allowedHosts: readonly string[] | null;
}

const KEYS = new Set([
  "allowResolve",
  "token",
  "client",
  "resolveConcurrency",
  "maxBodyBytes",
  "maxBatch",
  "maxInFlight",
  "requestTimeoutMs",
  "assetsDir",
  "log",
  "allowedHosts",
]);

function integer(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(
      `canonurl serve: option "${name}" must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Validates {@link ServeOptions} (unknown key or wrong type: `TypeError` naming the option) and
 * fills in the defaults.
 *
 * @example
 * ```ts
 * resolveServeOptions({ maxBatch: 100 }).maxBatch; // 100
 * ```
 */
export function resolveServeOptions(options: ServeOptions = {}): ResolvedServeOptions {
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) throw new TypeError(`canonurl serve: unknown option "${key}"`);
  }
  const { token, log, assetsDir, allowResolve, client } = options;
  if (token !== undefined && (typeof token !== "string" || token === "" || /\s/.test(token))) {
    throw new TypeError('canonurl serve: option "token" must be a non-empty string without spaces');
  }
  if (allowResolve !== undefined && typeof allowResolve !== "boolean") {
    throw new TypeError('canonurl serve: option "allowResolve" must be a boolean');
  }
  if (log !== undefined && typeof log !== "function")
    throw new TypeError('canonurl serve: option "log" must be a function');
  if (assetsDir !== undefined && typeof assetsDir !== "string") {
    throw new TypeError('canonurl serve: option "assetsDir" must be a string');
  }
  const { allowedHosts } = options;
  if (
    allowedHosts !== undefined &&
    allowedHosts !== null &&
    (!Array.isArray(allowedHosts) || !allowedHosts.every((h) => typeof h === "string" && h !== ""))
  ) {
    throw new TypeError('canonurl serve: option "allowedHosts" must be null or an array of host names');
  }
  if (client !== undefined && (typeof client !== "object" || client === null)) {
    throw new TypeError('canonurl serve: option "client" must be an object');
  }
  return Object.freeze({
    allowResolve: allowResolve ?? false,
    token: token ?? null,
    client: client ?? {},
    resolveConcurrency: integer(options.resolveConcurrency, "resolveConcurrency", 1, 1000, 8),
    maxBodyBytes: integer(options.maxBodyBytes, "maxBodyBytes", 1, 2 ** 30, 4 * 1024 * 1024),
    maxBatch: integer(options.maxBatch, "maxBatch", 1, 10_000_000, 10_000),
    maxInFlight: integer(options.maxInFlight, "maxInFlight", 1, 100_000, 64),
    requestTimeoutMs: integer(options.requestTimeoutMs, "requestTimeoutMs", 1, 2_147_483_647, 60_000),
    assetsDir: assetsDir ?? null,
    log: log ?? (() => {}),
    allowedHosts:
      allowedHosts === null
        ? null
        : Object.freeze((allowedHosts ?? LOOPBACK_HOST_NAMES).map((h) => h.toLowerCase())),
  });
}
