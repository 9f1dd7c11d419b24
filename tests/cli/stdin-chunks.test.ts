import assert from "node:assert/strict";
import { closeSync, createReadStream, openSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import { FILE_READ_BYTES, stdinChunks } from "../../src/cli/io/stdin-chunks.js";
import { tempDir } from "../helpers/temp-dir.js";

async function collect(chunks: AsyncIterable<Buffer | string>): Promise<{ bytes: Buffer; sizes: number[] }> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return { bytes: Buffer.concat(parts), sizes: parts.map((p) => p.length) };
}

// A file of a few reads and a ragged end, with bytes that differ from read to read.
function tempFile(): { path: string; content: Buffer } {
  const content = Buffer.alloc(3 * FILE_READ_BYTES + 1234);
  for (let i = 0; i < content.length; i++) content[i] = (i * 31 + (i >> 9)) & 0xff;
  const path = join(tempDir("canonurl-stdin-"), "input.bin");
  writeFileSync(path, content);
  return { path, content };
}

describe("stdinChunks: a regular file is read on the calling thread", () => {
  it("reads the whole file in reads of FILE_READ_BYTES, not through the stream", async () => {
    const { path, content } = tempFile();
    const fd = openSync(path, "r");
    try {
      const stream = createReadStream("", { fd, autoClose: false });
      const chunks = stdinChunks(stream);
      assert.notEqual(chunks, stream, "the file is read directly");
      const { bytes, sizes } = await collect(chunks);
      assert.ok(bytes.equals(content));
      assert.deepEqual(sizes, [FILE_READ_BYTES, FILE_READ_BYTES, FILE_READ_BYTES, 1234]);
      assert.equal(stream.readableDidRead, false, "the stream itself was never read");
    } finally {
      closeSync(fd);
    }
  });

  it("starts where the descriptor stands, as the stream would (`{ read -r x; canonurl; } < file`)", async () => {
    const { path, content } = tempFile();
    const fd = openSync(path, "r");
    try {
      readSync(fd, Buffer.alloc(1000), 0, 1000, null); // someone before us took 1000 bytes
      const { bytes } = await collect(stdinChunks(createReadStream("", { fd, autoClose: false })));
      assert.ok(bytes.equals(content.subarray(1000)));
    } finally {
      closeSync(fd);
    }
  });

  it("keeps the stream when it is not a file, or was read from already", async () => {
    const plain = Readable.from([Buffer.from("a\n")]);
    assert.equal(stdinChunks(plain), plain);
    const { path, content } = tempFile();
    const fd = openSync(path, "r");
    try {
      const stream = createReadStream("", { fd, autoClose: false });
      const first = await new Promise<Buffer>((resolve) =>
        stream.once("data", (d) => resolve(Buffer.from(d))),
      );
      stream.pause();
      assert.equal(stdinChunks(stream), stream, "a started stream is read to its end as a stream");
      const { bytes } = await collect(stdinChunks(stream));
      assert.ok(Buffer.concat([first, bytes]).equals(content));
    } finally {
      closeSync(fd);
    }
  });
});
