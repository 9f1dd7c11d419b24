/**
 * The longest input line the command line accepts, in bytes, not counting its ending (`\n` or
 * `\r\n`). A URL is rarely longer than a few KiB (browsers cap at 2 MiB, servers at 8-64 KiB);
 * without a cap, one endless line (a binary file piped in by mistake) would grow memory without
 * bound. A longer line is a failed input (`invalid-url`), skipped in constant memory.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/** How many characters of an over-long line its failure report quotes. */
export const OVERLONG_PREFIX_CHARS = 64;

/**
 * A line longer than the limit: its first {@link OVERLONG_PREFIX_CHARS} characters and its length.
 * A plain object (not a class), so it crosses a worker thread boundary intact.
 */
export interface OverlongLine {
  readonly prefix: string;
  readonly bytes: number;
}

/** One input line: its text, or the fact that it was too long to keep. */
export type InputLine = string | OverlongLine;

/**
 * `count` complete input lines still as UTF-8 bytes, each ended by `\n` except the last (whose `\n`
 * is not included), none over the limit; {@link decodeLines} turns them into lines. The bytes have
 * their own `ArrayBuffer`, so they can be transferred to a worker thread without a copy: there the
 * decoding and splitting is done off the main thread, which only finds the line ends.
 */
export interface RawLines {
  readonly raw: Uint8Array;
  readonly count: number;
}

/** What {@link LineSplitter.pushBlocks} emits: single lines, or runs of lines still as bytes. */
export type LineBlock = InputLine | RawLines;

/**
 * Whether a {@link LineBlock} is a run of raw lines.
 *
 * @example
 * ```ts
 * isRawLines({ raw: new Uint8Array(0), count: 1 }); // true
 * ```
 */
export function isRawLines(block: LineBlock): block is RawLines {
  return typeof block === "object" && "raw" in block;
}

/**
 * Decodes a run of raw lines the way {@link LineSplitter.push} would have, appending them to `out`.
 *
 * @example
 * ```ts
 * const out: InputLine[] = [];
 * decodeLines({ raw: new TextEncoder().encode("a\r\nb\rc"), count: 2 }, out); // out: ["a", "b\rc"]
 * ```
 */
export function decodeLines(block: RawLines, out: InputLine[]): void {
  const bytes = Buffer.from(block.raw.buffer, block.raw.byteOffset, block.raw.byteLength);
  splitDecoded(bytes, 0, bytes.length, out);
}

// One toString and one native split for a run of complete lines; a \r before a \n is the ending's.
function splitDecoded(bytes: Buffer, start: number, end: number, out: InputLine[]): void {
  const lines = bytes.toString("utf8", start, end).split("\n");
  for (const line of lines) out.push(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line);
}

/**
 * Splits a byte stream into lines in constant memory. A line ends only at `\n`; a `\r` right before
 * it is part of the ending (`\r\n`), and a lone `\r` anywhere else stays inside its line, so output
 * line `i` always answers input line `i` (node's readline also ends a line at a lone `\r`, which
 * shifted every later output: issue 11). The last line counts without a trailing `\n`. Bytes
 * decode as UTF-8, an invalid sequence as U+FFFD.
 *
 * Each chunk is decoded with one `toString` and one `split` (native), not line by line.
 *
 * @example
 * ```ts
 * const splitter = new LineSplitter();
 * const lines: InputLine[] = [];
 * splitter.push(Buffer.from("a\r\nb\rc\nd"), lines); // lines: ["a", "b\rc"]
 * splitter.end(lines); // lines: ["a", "b\rc", "d"]
 * ```
 */
export class LineSplitter {
  readonly #max: number;
  // The unfinished line's bytes, in order; at most #max + 1 bytes (a trailing \r may be the ending's).
  #carry: Buffer[] = [];
  #carryBytes = 0;
  // Inside an over-long line: its bytes are counted, not kept, until its \n.
  #skipping = false;
  #skippedBytes = 0;
  // The over-long line's first bytes, enough for its quoted prefix (a character is at most 4 bytes).
  #prefix: Buffer[] = [];
  #prefixBytes = 0;
  #skippedEndsWithCr = false;

  constructor(maxLineBytes: number = MAX_LINE_BYTES) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new TypeError(`maxLineBytes must be a positive integer, got ${maxLineBytes}`);
    }
    this.#max = maxLineBytes;
  }

  /** Splits `chunk`, appending every line it completes to `out`. */
  push(chunk: Buffer | Uint8Array, out: InputLine[]): void {
    this.#push(chunk, out, false);
  }

  /**
   * Like {@link push}, but the lines a chunk holds whole are appended as one {@link RawLines}
   * (found, counted and copied, not decoded); only a line carried over from earlier chunks, or
   * an over-long one, is appended as a line. {@link decodeLines} of the runs gives the same lines
   * as {@link push}.
   */
  pushBlocks(chunk: Buffer | Uint8Array, out: LineBlock[]): void {
    this.#push(chunk, out, true);
  }

  #push(chunk: Buffer | Uint8Array, out: LineBlock[], raw: boolean): void {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Pieces no longer than the limit: then a line that starts and ends inside one piece is never
    // over-long, and only the carried line needs counting.
    for (let at = 0; at < bytes.length; at += this.#max) {
      this.#pushPiece(bytes.subarray(at, Math.min(bytes.length, at + this.#max)), out, raw);
    }
  }

  /** Ends the input: the unfinished last line, if any, is appended to `out`. */
  end(out: LineBlock[]): void {
    if (this.#skipping || this.#carryBytes > 0) out.push(this.#takeCarried(false));
  }

  #pushPiece(piece: Buffer, out: LineBlock[], raw: boolean): void {
    const first = piece.indexOf(10);
    if (first === -1) {
      this.#append(piece);
      return;
    }
    let start = 0;
    if (this.#skipping || this.#carryBytes > 0) {
      this.#append(piece.subarray(0, first));
      out.push(this.#takeCarried(true));
      start = first + 1;
    }
    const last = piece.lastIndexOf(10);
    if (last >= start) {
      if (raw) {
        let count = 1;
        for (let i = piece.indexOf(10, start); i !== -1 && i < last; i = piece.indexOf(10, i + 1)) count++;
        // A copy with its own ArrayBuffer: a transfer must not detach the reader's (pooled) chunk.
        const copy = new Uint8Array(last - start);
        copy.set(piece.subarray(start, last));
        out.push({ raw: copy, count });
      } else splitDecoded(piece, start, last, out as InputLine[]);
    }
    if (last + 1 < piece.length) this.#append(piece.subarray(last + 1));
  }

  #append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (!this.#skipping && this.#carryBytes + bytes.length > this.#max + 1) {
      this.#skipping = true;
      this.#skippedBytes = 0;
      for (const kept of this.#carry) this.#skip(kept);
      this.#carry = [];
      this.#carryBytes = 0;
    }
    if (this.#skipping) {
      this.#skip(bytes);
      return;
    }
    // A copy: the carried tail must not pin (or see reuse of) the caller's whole chunk.
    this.#carry.push(Buffer.from(bytes));
    this.#carryBytes += bytes.length;
  }

  #skip(bytes: Buffer): void {
    this.#skippedBytes += bytes.length;
    this.#skippedEndsWithCr = bytes[bytes.length - 1] === 13;
    if (this.#prefixBytes < PREFIX_BYTES) {
      const head = Buffer.from(bytes.subarray(0, PREFIX_BYTES - this.#prefixBytes));
      this.#prefix.push(head);
      this.#prefixBytes += head.length;
    }
  }

  // The carried line, ended by a \n (`ended`) or by the end of the input (a lone \r stays then).
  #takeCarried(ended: boolean): InputLine {
    if (this.#skipping) {
      const cr = ended && this.#skippedEndsWithCr ? 1 : 0;
      let head = Buffer.concat(this.#prefix);
      // The whole line fit in the prefix (only with a tiny limit): its ending's \r is not content.
      if (cr === 1 && this.#skippedBytes <= PREFIX_BYTES) head = head.subarray(0, -1);
      const line: OverlongLine = { prefix: prefixOf(head), bytes: this.#skippedBytes - cr };
      this.#skipping = false;
      this.#skippedBytes = 0;
      this.#prefix = [];
      this.#prefixBytes = 0;
      return line;
    }
    let all = this.#carry.length === 1 ? (this.#carry[0] as Buffer) : Buffer.concat(this.#carry);
    this.#carry = [];
    this.#carryBytes = 0;
    if (ended && all.length > 0 && all[all.length - 1] === 13) all = all.subarray(0, -1);
    if (all.length > this.#max) {
      // Exactly one byte over, which was not the ending's \r: over-long after all.
      return { prefix: prefixOf(all), bytes: all.length };
    }
    return all.toString("utf8");
  }
}

const PREFIX_BYTES = 4 * OVERLONG_PREFIX_CHARS;

function prefixOf(bytes: Buffer): string {
  return bytes.toString("utf8", 0, PREFIX_BYTES).slice(0, OVERLONG_PREFIX_CHARS);
}
