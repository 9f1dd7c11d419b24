import type { NormalizeOptions } from "../pipeline/normalize-options.js";
import {
  NORMALIZE_OPTION_KEYS,
  type ResolvedNormalizeOptions,
  resolveNormalizeOptions,
} from "../pipeline/resolve-normalize-options.js";
import type { Cache } from "./cache.js";
import { type ResolvedCachePolicy, resolveCachePolicy } from "./cache-policy.js";
import { parseCidr } from "./guard/ip-address.js";
import type { Transport } from "./http/transport.js";
import type { ClientOptions } from "./types.js";

/** `ClientOptions` after validation: every field present, frozen. Internal. */
export interface ResolvedClientOptions {
  readonly maxHops: number;
  readonly totalTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly readTimeoutMs: number;
  readonly writeTimeoutMs: number;
  readonly maxBodyBytes: number;
  readonly allowedPorts: readonly number[];
  readonly allowPrivateNetworks: boolean;
  readonly allowedNetworks: readonly string[];
  readonly allowDowngrade: boolean;
  readonly canonicalLinks: "any" | "same-site" | "off";
  readonly headers: Readonly<Record<string, string>>;
  readonly ca: readonly string[];
  readonly resolver: ((hostname: string, signal: AbortSignal) => Promise<string[]>) | null;
  readonly transport: Transport | null;
  readonly logger: { debug(message: string, data?: object): void } | null;
  readonly hooks: Readonly<NonNullable<ClientOptions["hooks"]>>;
  readonly cache: Cache | null;
  readonly cachePolicy: ResolvedCachePolicy;
  readonly hostConcurrency: number;
  readonly maxRetryAfterMs: number;
  /** The final pipeline's options (the chosen preset, validated by the pipeline itself). */
  readonly normalize: ResolvedNormalizeOptions;
  /** Every hop's syntactic form: rfc3986 with the same default scheme. */
  readonly hopNormalize: ResolvedNormalizeOptions;
  /** The options as given, validated and frozen: what `Client.options` shows. */
  readonly given: Readonly<ClientOptions>;
}

/** Request headers when none are given: plain, identifiable, and asking for HTML first. */
export const DEFAULT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "user-agent": "canonurl/0.1 (+https://github.com/canonurl/canonurl)",
  accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
});

type Check = (value: unknown, name: string) => void;

function fail(name: string, expected: string, value: unknown): never {
  const shown = typeof value === "function" ? "a function" : (JSON.stringify(value) ?? String(value));
  throw new TypeError(`canonurl: option "${name}" must be ${expected}, got ${shown}`);
}

const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Check =>
  (value, name) => {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      fail(name, `an integer from ${min} to ${max}`, value);
    }
  };
const boolean: Check = (value, name) => {
  if (typeof value !== "boolean") fail(name, "a boolean", value);
};
const oneOf =
  (...allowed: string[]): Check =>
  (value, name) => {
    if (typeof value !== "string" || !allowed.includes(value))
      fail(name, `one of ${allowed.join(", ")}`, value);
  };
const stringArray: Check = (value, name) => {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    fail(name, "an array of strings", value);
  }
};
const fn: Check = (value, name) => {
  if (typeof value !== "function") fail(name, "a function", value);
};
const withMethods =
  (...methods: string[]): Check =>
  (value, name) => {
    if (typeof value !== "object" || value === null)
      fail(name, `an object with ${methods.join(", ")}`, value);
    for (const method of methods) {
      if (typeof (value as Record<string, unknown>)[method] !== "function") {
        fail(name, `an object with a ${method}() method`, value);
      }
    }
  };

// Node's setTimeout caps at 2^31-1 ms; a larger value would fire at once.
const MAX_TIMER = 2_147_483_647;
// RFC 9110 §5.5: field names are tokens, values exclude CR, LF and NUL.
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_FIELD_VALUE = /[\r\n\0]/;

type NetworkKey = Exclude<keyof ClientOptions, keyof NormalizeOptions>;

const CHECKS: Readonly<Record<NetworkKey, Check>> = {
  maxHops: integer(0, 100),
  totalTimeoutMs: integer(1, MAX_TIMER),
  connectTimeoutMs: integer(1, MAX_TIMER),
  readTimeoutMs: integer(1, MAX_TIMER),
  writeTimeoutMs: integer(1, MAX_TIMER),
  maxBodyBytes: integer(1, 2 ** 30),
  allowedPorts(value, name) {
    if (!Array.isArray(value) || value.length === 0) fail(name, "a non-empty array of ports", value);
    for (const port of value) integer(1, 65535)(port, `${name}[]`);
  },
  allowPrivateNetworks: boolean,
  allowedNetworks(value, name) {
    stringArray(value, name);
    for (const cidr of value as string[]) {
      try {
        parseCidr(cidr);
      } catch (error) {
        throw new TypeError(`canonurl: option "${name}": ${(error as Error).message}`);
      }
    }
  },
  allowDowngrade: boolean,
  canonicalLinks: oneOf("any", "same-site", "off"),
  headers(value, name) {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      fail(name, "an object of strings", value);
    for (const [field, text] of Object.entries(value)) {
      if (!FIELD_NAME.test(field)) fail(`${name}.${field}`, "a valid header name", field);
      if (typeof text !== "string" || BAD_FIELD_VALUE.test(text))
        fail(`${name}.${field}`, "a header value", text);
    }
  },
  ca(value, name) {
    if (typeof value === "string") return;
    stringArray(value, name);
  },
  resolver: fn,
  transport: withMethods("request"),
  logger: withMethods("debug"),
  hooks(value, name) {
    if (typeof value !== "object" || value === null) fail(name, "an object", value);
    for (const [hook, handler] of Object.entries(value)) {
      if (hook !== "onHop" && hook !== "onRuleApplied" && hook !== "onComplete") {
        throw new TypeError(`canonurl: unknown option "${name}.${hook}"`);
      }
      if (handler !== undefined) fn(handler, `${name}.${hook}`);
    }
  },
  cache: withMethods("get", "set", "delete"),
  cachePolicy(value) {
    resolveCachePolicy(value);
  },
  hostConcurrency: integer(1, 1_000_000),
  maxRetryAfterMs: integer(0, MAX_TIMER),
};

/**
 * Every option name {@link resolveClientOptions} accepts: the normalize options and the client's
 * own. The cache key's decision table (cache-key.ts) is checked against it.
 *
 * @example
 * ```ts
 * CLIENT_OPTION_KEYS.includes("resolver"); // true
 * ```
 */
export const CLIENT_OPTION_KEYS: readonly string[] = Object.freeze([
  ...NORMALIZE_OPTION_KEYS,
  ...Object.keys(CHECKS),
]);

function freezeCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze([...value]) as T;
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.freeze({ ...value });
  }
  return value;
}

function build(given: Readonly<ClientOptions>): ResolvedClientOptions {
  const normalizeGiven: Record<string, unknown> = {};
  for (const key of NORMALIZE_OPTION_KEYS) {
    const value = (given as Record<string, unknown>)[key];
    if (value !== undefined) normalizeGiven[key] = value;
  }
  // The pipeline validates its own options (TypeError naming the option), so both agree on them.
  const normalize = resolveNormalizeOptions(normalizeGiven as NormalizeOptions);
  const hopNormalize = resolveNormalizeOptions({ preset: "rfc3986", defaultScheme: normalize.defaultScheme });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given.headers ?? DEFAULT_HEADERS)) {
    headers[name.toLowerCase()] = value;
  }
  // Ask for the body as is; a server that compresses anyway is inflated under the same byte limit.
  headers["accept-encoding"] ??= "identity";
  return Object.freeze({
    maxHops: given.maxHops ?? 10,
    totalTimeoutMs: given.totalTimeoutMs ?? 30_000,
    connectTimeoutMs: given.connectTimeoutMs ?? 8_000,
    readTimeoutMs: given.readTimeoutMs ?? 15_000,
    writeTimeoutMs: given.writeTimeoutMs ?? 8_000,
    maxBodyBytes: given.maxBodyBytes ?? 1_048_576,
    allowedPorts: Object.freeze([...(given.allowedPorts ?? [80, 443])]),
    allowPrivateNetworks: given.allowPrivateNetworks ?? false,
    allowedNetworks: Object.freeze([...(given.allowedNetworks ?? [])]),
    allowDowngrade: given.allowDowngrade ?? false,
    canonicalLinks: given.canonicalLinks ?? "any",
    headers: Object.freeze(headers),
    ca: Object.freeze(typeof given.ca === "string" ? [given.ca] : [...(given.ca ?? [])]),
    resolver: given.resolver ?? null,
    transport: given.transport ?? null,
    logger: given.logger ?? null,
    hooks: given.hooks ?? Object.freeze({}),
    cache: given.cache ?? null,
    cachePolicy: resolveCachePolicy(given.cachePolicy),
    hostConcurrency: given.hostConcurrency ?? 6,
    maxRetryAfterMs: given.maxRetryAfterMs ?? 5_000,
    normalize,
    hopNormalize,
    given,
  });
}

const DEFAULTS: ResolvedClientOptions = build(Object.freeze({}));

/**
 * Validates `ClientOptions` (an unknown key, a wrong type or an out-of-range value throws a
 * `TypeError` naming the option), copies and freezes them, and fills every default. Without
 * options it returns one shared frozen default object.
 *
 * @example
 * ```ts
 * resolveClientOptions({ maxHops: 3 }).maxHops; // 3
 * resolveClientOptions({ maxHop: 3 });          // TypeError: unknown option "maxHop"
 * ```
 */
export function resolveClientOptions(options?: ClientOptions): ResolvedClientOptions {
  if (options === undefined) return DEFAULTS;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`canonurl: options must be an object, got ${JSON.stringify(options)}`);
  }
  const given: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(options)) {
    const isNormalizeKey = NORMALIZE_OPTION_KEYS.has(key);
    if (!isNormalizeKey && !Object.hasOwn(CHECKS, key))
      throw new TypeError(`canonurl: unknown option "${key}"`);
    if (value === undefined) continue;
    if (!isNormalizeKey) CHECKS[key as NetworkKey](value, key);
    given[key] = freezeCopy(value);
    any = true;
  }
  if (!any) return DEFAULTS;
  return build(Object.freeze(given) as Readonly<ClientOptions>);
}
