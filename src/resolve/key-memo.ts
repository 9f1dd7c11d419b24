/**
 * Most inputs a {@link KeyMemo} holds. It remembers at least the last half this many distinct
 * inputs, and forgets any input not asked for again within this many.
 */
export const KEY_MEMO_ENTRIES = 4_096;
/** Longest input (UTF-16 code units) a {@link KeyMemo} remembers: longer ones are computed each time. */
export const KEY_MEMO_INPUT_CHARS = 512;
/**
 * Longest key a {@link KeyMemo} remembers. Normalizing can make a key nine times its input (every
 * non-ASCII character percent-encoded as three bytes), so the input bound alone does not bound it.
 */
export const KEY_MEMO_KEY_CHARS = 1_024;

/** Remembers what a pure function of a string gave for recent inputs. */
export interface KeyMemo {
  /** `compute(input)`, from memory when `input` was asked for recently. */
  keyOf(input: string): string | undefined;
}

/**
 * Remembers the cache keys of recent inputs. A key is a parse and a normalization of the input
 * (about 0.8 µs, four times a memoryCache get), and a hit path sees the same input text again and
 * again (a feed polled, a link posted twice, resolveMany asking joins() and then resolving). The
 * key depends only on the input and the client's options, which never change, so a remembered key
 * is exact; only the cost is saved. Bounded in entries and lengths: at most 4,096 inputs of at
 * most 512 characters with keys of at most 1,024 (at worst 12 MiB of text, every input and key two-byte at its bound:
 * 10.4 MiB of heap measured on Node 20, 12.4 on Node 26, whose V8 shares less of the sliced keys;
 * tests/resolve/key-memo.test.ts pins it; 0.6 MiB for URLs of
 * about 50 characters). The least recently used
 * are forgotten first, a half at a time.
 *
 * @example
 * ```ts
 * const memo = createKeyMemo((input) => input.trim().toLowerCase());
 * memo.keyOf(" A "); // "a", computed
 * memo.keyOf(" A "); // "a", remembered
 * ```
 */
export function createKeyMemo(compute: (input: string) => string | undefined): KeyMemo {
  // Two generations, the newer filled until it holds half the entries, then the older dropped
  // whole: forgetting costs nothing per input. (Deleting a Map's oldest entry one at a time leaves
  // holes that V8's Map iterator walks over; that made a forgotten input cost 3 µs, not 0.8.)
  const half = KEY_MEMO_ENTRIES / 2;
  let newer = new Map<string, string | undefined>();
  let older = new Map<string, string | undefined>();
  function remember(input: string, key: string | undefined): void {
    if (newer.size >= half) {
      older = newer;
      newer = new Map();
    }
    newer.set(input, key);
  }
  return {
    keyOf(input) {
      const found = newer.get(input);
      if (found !== undefined || newer.has(input)) return found;
      if (older.has(input)) {
        const key = older.get(input);
        // Still in use: carried into the newer generation, so it outlives the next drop.
        remember(input, key);
        return key;
      }
      const key = compute(input);
      if (
        typeof input === "string" &&
        input.length <= KEY_MEMO_INPUT_CHARS &&
        (key === undefined || key.length <= KEY_MEMO_KEY_CHARS)
      )
        remember(input, key);
      return key;
    },
  };
}
