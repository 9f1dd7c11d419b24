// The resolver's public entry points take values from callers who may not use TypeScript (or pass
// `any`): each checks its arguments here, first, so a wrong type is a TypeError that says what was
// wrong, never a crash somewhere inside or a network failure it is not.

/**
 * A short name for a value's type in an error message: `null` and `array` apart from `object`.
 *
 * @example
 * ```ts
 * typeName(null); // "null"
 * typeName([1]);  // "array"
 * ```
 */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * Throws a `TypeError` naming the type when `url` is not a string.
 *
 * @example
 * ```ts
 * checkUrlArgument("http://a.test/"); // ok
 * checkUrlArgument(123);              // TypeError: canonurl: url must be a string, got number
 * ```
 */
export function checkUrlArgument(url: unknown): asserts url is string {
  if (typeof url !== "string") throw new TypeError(`canonurl: url must be a string, got ${typeName(url)}`);
}

/**
 * Throws a `TypeError` when `signal` is given but is not an `AbortSignal`, so a mistyped option
 * fails at the call instead of as an abort that never comes.
 *
 * @example
 * ```ts
 * checkSignalArgument(undefined);              // ok
 * checkSignalArgument(new AbortController());  // TypeError: ... got AbortController
 * ```
 */
export function checkSignalArgument(signal: unknown): asserts signal is AbortSignal | undefined {
  // A real AbortSignal only: the batch combines it with AbortSignal.any, which takes no look-alike.
  if (signal === undefined || signal instanceof AbortSignal) return;
  let what = typeName(signal);
  try {
    // "[object AbortController]" names the usual mistake (the controller for its signal).
    if (what === "object") what = Object.prototype.toString.call(signal).slice(8, -1);
  } catch {
    // A revoked Proxy: "object" will do.
  }
  throw new TypeError(`canonurl: option "signal" must be an AbortSignal, got ${what}`);
}

/**
 * Throws a `TypeError` unless `urls` is an iterable or async iterable; a string is refused (it is
 * iterable, but its characters are not URLs: `resolveMany("http://a")` is always a mistake).
 *
 * @example
 * ```ts
 * checkBatchArgument(["http://a.test/"]);  // ok
 * checkBatchArgument("http://a.test/");    // TypeError
 * ```
 */
export function checkBatchArgument(
  urls: unknown,
): asserts urls is Iterable<unknown> | AsyncIterable<unknown> {
  if (typeof urls === "string") {
    throw new TypeError("canonurl: resolveMany takes an iterable of URL strings, got one string");
  }
  const iterable =
    typeof urls === "object" &&
    urls !== null &&
    (typeof (urls as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function" ||
      typeof (urls as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function");
  if (!iterable) {
    throw new TypeError(
      `canonurl: resolveMany takes an iterable or async iterable of URL strings, got ${typeName(urls)}`,
    );
  }
}

/**
 * The batch concurrency: `undefined` gives `fallback`; anything but an integer from 1 to 10000
 * (0, NaN, Infinity, 2.5, "8") is a `TypeError` naming the option.
 *
 * @example
 * ```ts
 * checkConcurrency(undefined, 8); // 8
 * checkConcurrency(0, 8);         // TypeError
 * ```
 */
export function checkConcurrency(concurrency: unknown, fallback: number): number {
  if (concurrency === undefined) return fallback;
  if (
    typeof concurrency !== "number" ||
    !Number.isInteger(concurrency) ||
    concurrency < 1 ||
    concurrency > 10_000
  ) {
    throw new TypeError(
      `canonurl: option "concurrency" must be an integer from 1 to 10000, got ${typeof concurrency === "number" ? concurrency : typeName(concurrency)}`,
    );
  }
  return concurrency;
}
