import type { CacheEntry } from "./cache.js";

/**
 * The stored format's version. A value without it, or with another, is a miss: a newer or older
 * canonurl sharing the store never reads what it cannot understand.
 */
export const ENTRY_FORMAT_VERSION = 1;

/**
 * Largest encoded entry, in UTF-16 code units of its JSON. An honest worst case stays well below:
 * 11 hops (maxHops 10) with URLs as long as a 16 KiB response head allows, plus one head's
 * headers, is about 200 Ki. A bigger entry is refused (set rejects with a RangeError), so one
 * hostile site cannot fill a shared store.
 */
export const MAX_ENTRY_CHARS = 262_144;

/**
 * Deepest nesting a stored entry may have. An honest one nests 5 deep (entry → outcome → result →
 * chain → hop); the rest is room for fields a later version adds. A deeper value, say a field
 * nested 100,000 deep under the size limit (issue 23), is a miss: it overflowed the stack of the
 * freeze and made every read of its key look like a cache that is down.
 */
export const MAX_ENTRY_DEPTH = 32;

const SOURCES = new Set(["initial", "redirect", "canonical-link"]);
const METHODS = new Set(["HEAD", "GET"]);

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isStringArray(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const s of v) if (typeof s !== "string") return false;
  return true;
}

function isHop(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v.url === "string" &&
    SOURCES.has(v.via as string) &&
    METHODS.has(v.method as string) &&
    (v.status === null || typeof v.status === "number")
  );
}

function isResolution(v: unknown): boolean {
  if (
    !isObject(v) ||
    typeof v.url !== "string" ||
    typeof v.original !== "string" ||
    !SOURCES.has(v.source as string) ||
    typeof v.status !== "number" ||
    !isObject(v.headers) ||
    (v.ruleApplied !== null && typeof v.ruleApplied !== "string") ||
    !isStringArray(v.paramsStripped) ||
    typeof v.verified !== "boolean" ||
    typeof v.durationMs !== "number" ||
    typeof v.cached !== "boolean" ||
    !Array.isArray(v.chain)
  ) {
    return false;
  }
  for (const hop of v.chain) if (!isHop(hop)) return false;
  for (const key in v.headers) if (typeof v.headers[key] !== "string") return false;
  return true;
}

/**
 * Whether a value has the shape of a {@link CacheEntry}: finite times, and an outcome that is a
 * Resolution or a `{ code, message }` error. Unknown extra fields are allowed (kept), so a later
 * field added to Resolution does not turn every stored entry into a miss.
 *
 * @example
 * ```ts
 * isCacheEntry({ outcome: { ok: false, error: { code: "timeout", message: "m" } }, storedAt: 1, freshUntil: 2 }); // true
 * isCacheEntry({ outcome: { ok: true }, storedAt: 1, freshUntil: 2 }); // false
 * ```
 */
export function isCacheEntry(v: unknown): v is CacheEntry {
  if (!isObject(v) || !Number.isFinite(v.storedAt) || !Number.isFinite(v.freshUntil)) return false;
  const outcome = v.outcome;
  if (!isObject(outcome)) return false;
  if (outcome.ok === true) return isResolution(outcome.result);
  return (
    outcome.ok === false &&
    isObject(outcome.error) &&
    typeof outcome.error.code === "string" &&
    typeof outcome.error.message === "string"
  );
}

// Children first, with index loops over Object.keys: for-in over an object just frozen was a
// quarter of a decode (an 870-character entry: 1.2 µs of 4.5, against 0.9 µs this way). False
// when the value nests deeper than `depth` levels (nothing past that level is visited, so the
// recursion itself stays shallow).
function deepFreeze(v: unknown, depth: number): boolean {
  if (typeof v === "object" && v !== null) {
    if (depth === 0) return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!deepFreeze(v[i], depth - 1)) return false;
    } else {
      const keys = Object.keys(v);
      for (let i = 0; i < keys.length; i++)
        if (!deepFreeze((v as Json)[keys[i] as string], depth - 1)) return false;
    }
    Object.freeze(v);
  }
  return true;
}

/**
 * The stored text of an entry: JSON with the format version. Throws a TypeError for a value that
 * is not a CacheEntry and a RangeError for one larger than {@link MAX_ENTRY_CHARS}.
 *
 * @example
 * ```ts
 * const text = encodeEntry(entry); // '{"v":1,"storedAt":…,"freshUntil":…,"outcome":{…}}'
 * ```
 */
export function encodeEntry(entry: CacheEntry): string {
  if (!isCacheEntry(entry))
    throw new TypeError("cache entry: not a CacheEntry ({ outcome, storedAt, freshUntil })");
  const text = JSON.stringify({
    v: ENTRY_FORMAT_VERSION,
    storedAt: entry.storedAt,
    freshUntil: entry.freshUntil,
    outcome: entry.outcome,
  });
  if (text.length > MAX_ENTRY_CHARS) {
    throw new RangeError(`cache entry: ${text.length} characters encoded, the limit is ${MAX_ENTRY_CHARS}`);
  }
  return text;
}

/**
 * The entry a stored text holds, deep-frozen, or `undefined` when the text is not one this version
 * wrote (corrupt, truncated, foreign, another format version, nested deeper than
 * {@link MAX_ENTRY_DEPTH}, larger than {@link MAX_ENTRY_CHARS}): such a value is a miss, never an
 * error.
 *
 * @example
 * ```ts
 * decodeEntry(encodeEntry(entry)); // an equal, frozen entry
 * decodeEntry("garbage"); // undefined
 * ```
 */
export function decodeEntry(text: unknown): CacheEntry | undefined {
  if (typeof text !== "string" || text.length > MAX_ENTRY_CHARS) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || parsed.v !== ENTRY_FORMAT_VERSION || !isCacheEntry(parsed)) return undefined;
  const entry = { outcome: parsed.outcome, storedAt: parsed.storedAt, freshUntil: parsed.freshUntil };
  return deepFreeze(entry, MAX_ENTRY_DEPTH) ? (entry as CacheEntry) : undefined;
}
