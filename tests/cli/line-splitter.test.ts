import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  decodeLines,
  type InputLine,
  isRawLines,
  type LineBlock,
  LineSplitter,
  MAX_LINE_BYTES,
  OVERLONG_PREFIX_CHARS,
} from "../../src/cli/io/line-splitter.js";

function split(chunks: (string | Buffer)[], max?: number): InputLine[] {
  const splitter = new LineSplitter(max);
  const out: InputLine[] = [];
  for (const chunk of chunks) splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk, out);
  splitter.end(out);
  return out;
}

// pushBlocks, then the runs decoded as a worker thread does: must equal split() exactly.
function splitViaBlocks(chunks: Buffer[], max: number, stats: { runs: number }): InputLine[] {
  const splitter = new LineSplitter(max);
  const blocks: LineBlock[] = [];
  for (const chunk of chunks) splitter.pushBlocks(chunk, blocks);
  splitter.end(blocks);
  const out: InputLine[] = [];
  for (const block of blocks) {
    if (!isRawLines(block)) {
      out.push(block);
      continue;
    }
    const before = out.length;
    decodeLines(block, out);
    assert.equal(out.length - before, block.count, "a run's count is the number of lines it holds");
    if (block.count > 1) stats.runs++;
  }
  return out;
}

// The rule written out the slow way: lines end only at \n, a \r right before it belongs to the
// ending, the last line counts without a \n, an empty input (or a final \n) adds no line.
function reference(text: string, max: number): InputLine[] {
  if (text === "") return [];
  const parts = text.split("\n");
  const endedLast = text.endsWith("\n");
  if (endedLast) parts.pop();
  return parts.map((part, i) => {
    const ended = i < parts.length - 1 || endedLast;
    const line = ended && part.endsWith("\r") ? part.slice(0, -1) : part;
    const bytes = Buffer.byteLength(line);
    if (bytes > max) return { prefix: line.slice(0, OVERLONG_PREFIX_CHARS), bytes };
    return line;
  });
}

describe("LineSplitter", () => {
  it("ends lines only at \\n: a lone \\r stays inside its line, \\r\\n is one ending", () => {
    assert.deepEqual(split(["a\rb\nc\r\nd\r\re\n"]), ["a\rb", "c", "d\r\re"]);
  });

  it("counts a last line without a newline, keeps its trailing lone \\r, adds none after a final \\n", () => {
    assert.deepEqual(split(["a\nb"]), ["a", "b"]);
    assert.deepEqual(split(["a\nb\r"]), ["a", "b\r"]);
    assert.deepEqual(split(["a\n"]), ["a"]);
    assert.deepEqual(split([""]), []);
    assert.deepEqual(split(["\n\n"]), ["", ""]);
  });

  it("joins a \\r\\n and a multi-byte character split across chunks", () => {
    assert.deepEqual(split(["a\r", "\nb"]), ["a", "b"]);
    const euro = Buffer.from("x€y\n"); // € is 3 bytes
    assert.deepEqual(split([euro.subarray(0, 2), euro.subarray(2, 3), euro.subarray(3)]), ["x€y"]);
  });

  it("a line of exactly the limit is kept; one byte more is an over-long line; \\r\\n is not counted", () => {
    const max = 10;
    assert.deepEqual(split(["0123456789\n"], max), ["0123456789"]);
    assert.deepEqual(split(["0123456789\r\n"], max), ["0123456789"]);
    assert.deepEqual(split(["0123456789a\nok"], max), [{ prefix: "0123456789a", bytes: 11 }, "ok"]);
    // At the end of the input a trailing \r is content, so it counts.
    assert.deepEqual(split(["0123456789\r"], max), [{ prefix: "0123456789\r", bytes: 11 }]);
    // Split across chunks, and far over the limit.
    assert.deepEqual(split(["0123", "456789", "\r", "\nok\n"], max), ["0123456789", "ok"]);
    assert.deepEqual(split(["012345", "6789abcdef", "ghij\r\nok"], max), [
      { prefix: "0123456789abcdefghij", bytes: 20 },
      "ok",
    ]);
  });

  it("skips an endless line in constant memory and reports its length", () => {
    const splitter = new LineSplitter();
    const out: InputLine[] = [];
    const chunk = Buffer.alloc(64 * 1024, "a");
    let fed = 0;
    // 64 MiB of one line: kept whole, it would need 64 MiB (128 MiB as a JS string).
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 1024; i++) {
      splitter.push(chunk, out);
      fed += chunk.length;
    }
    const grown = process.memoryUsage().arrayBuffers - before;
    splitter.push(Buffer.from("\nnext\n"), out);
    assert.deepEqual(out, [{ prefix: "a".repeat(OVERLONG_PREFIX_CHARS), bytes: fed }, "next"]);
    assert.ok(fed > 32 * MAX_LINE_BYTES);
    assert.ok(grown < 8 * MAX_LINE_BYTES, `buffers grew by ${grown} bytes`);
  });

  it("pushBlocks copies each run into its own ArrayBuffer (safe to transfer)", () => {
    const chunk = Buffer.from("a\nb\nc\nrest");
    const splitter = new LineSplitter();
    const blocks: LineBlock[] = [];
    splitter.pushBlocks(chunk, blocks);
    const run = blocks[0];
    assert.ok(run !== undefined && isRawLines(run));
    assert.equal(run.count, 3);
    assert.notEqual(run.raw.buffer, chunk.buffer);
    assert.equal(run.raw.byteLength, run.raw.buffer.byteLength);
  });

  it("a chunk larger than the limit is split with the same result", () => {
    const max = 16;
    const text = "short\nabcdefghijklmnopqrstuvwxyz\n0123456789abcdef\r\nend";
    assert.deepEqual(split([text], max), reference(text, max));
  });

  it("equals the reference rule for any text cut into any chunks (fast-check, fixed seed)", () => {
    let crBeforeNewlineAcrossChunks = 0;
    let loneCr = 0;
    let overlong = 0;
    const blockStats = { runs: 0 };
    const alphabet = fc.constantFrom("a", "b", "\r", "\n", "é", "€", "😀", " ");
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((cs) => cs.join("")),
        fc.array(fc.nat(80), { maxLength: 8 }),
        fc.integer({ min: 1, max: 24 }),
        (text, cutsRaw, max) => {
          const bytes = Buffer.from(text);
          const cuts = [...new Set(cutsRaw.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let at = 0;
          for (const cut of cuts) {
            chunks.push(bytes.subarray(at, cut));
            if (cut > 0 && bytes[cut - 1] === 13 && bytes[cut] === 10) crBeforeNewlineAcrossChunks++;
            at = cut;
          }
          chunks.push(bytes.subarray(at));
          const expected = reference(text, max);
          for (const line of expected) {
            if (typeof line !== "string") overlong++;
            else if (line.includes("\r")) loneCr++;
          }
          const plain = split(chunks, max);
          assert.deepEqual(splitViaBlocks(chunks, max, blockStats), plain, "pushBlocks + decodeLines");
          const got = plain.map((line) =>
            // The prefix is cut from the bytes, so a character split at its end may differ: compare
            // the prefix by its first characters only.
            typeof line === "string" ? line : { ...line, prefix: line.prefix.slice(0, 1) },
          );
          const want = expected.map((line) =>
            typeof line === "string" ? line : { ...line, prefix: line.prefix.slice(0, 1) },
          );
          assert.deepEqual(got, want);
        },
      ),
      { seed: 0x11ce, numRuns: 3000 },
    );
    assert.ok(crBeforeNewlineAcrossChunks > 20, `\\r|\\n cut ${crBeforeNewlineAcrossChunks} times`);
    assert.ok(loneCr > 100, `lone \\r in ${loneCr} lines`);
    assert.ok(overlong > 100, `over-long ${overlong} lines`);
    assert.ok(blockStats.runs > 100, `runs of several raw lines: ${blockStats.runs}`);
  });
});
