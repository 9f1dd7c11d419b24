import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient as createRedisClient } from "redis";
import { MAX_LINE_BYTES } from "../../src/cli/io/line-splitter.js";
import { MAX_CHUNK_CHARS } from "../../src/fleet/fleet.js";
import { createFleet } from "../../src/fleet/index.js";
import { jobKeys } from "../../src/fleet/keys.js";
import type { ClientOptions, Outcome } from "../../src/resolve/types.js";
import { MAX_URL_LENGTH } from "../../src/url/max-url-length.js";
import { testRedisUrl } from "../helpers/redis-server.js";
import { loopbackArgs, runCli } from "../helpers/run-cli.js";
import { type Origin, originClient, startOrigin } from "./origins.js";

describe("fleet: inputs too long to store", () => {
  let origin: Origin;
  let client: ClientOptions;
  before(async () => {
    origin = await startOrigin();
    client = originClient(origin.server.port);
  });
  after(() => origin.server.close());

  async function withWorker<T>(queue: string, body: () => Promise<T>): Promise<T> {
    const worker = createFleet({ redis: testRedisUrl(), queue, client });
    const stop = new AbortController();
    const running = worker.work({ concurrency: 4, signal: stop.signal });
    try {
      return await body();
    } finally {
      stop.abort();
      await running;
      await worker.close();
    }
  }

  it("fleet submit: an over-long line fails alone as in network mode and is never requested", {
    timeout: 60_000,
  }, async () => {
    const queue = `long${process.pid}`;
    const base = `http://h0.test:${origin.server.port}`;
    const long = `${base}/ok/${"a".repeat(MAX_LINE_BYTES)}`;
    const stdin = `${base}/ok/1\n${long}\n${base}/r/3\n`;
    const redis = ["--redis", testRedisUrl(), "--queue", queue];
    const got = await withWorker(queue, async () => {
      const submitted = await runCli(["fleet", "submit", ...redis], stdin);
      assert.equal(submitted.code, 0, submitted.stderr);
      const job = submitted.stdout.trim();
      return runCli(["fleet", "results", ...redis, "--job", job, "--json", "--follow"]);
    });
    const network = await runCli(["--json", ...loopbackArgs(origin.server.port, ["h0.test"])], stdin);
    assert.equal(got.code, 1, got.stderr);
    const lines = got.stdout.trimEnd().split("\n");
    const expected = network.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 3);
    // The failed line is the very line network mode prints; the others resolved alike.
    assert.equal(lines[1], expected[1]);
    const failure = JSON.parse(lines[1] ?? "");
    assert.equal(failure.error.code, "invalid-url");
    assert.match(failure.error.message, new RegExp(`line of ${Buffer.byteLength(long)} bytes is over the`));
    assert.ok(failure.input.length < 100, "the outcome shows a prefix, not the line");
    for (const i of [0, 2]) {
      const a = JSON.parse(lines[i] ?? "");
      const b = JSON.parse(expected[i] ?? "");
      assert.equal(a.ok, true);
      assert.deepEqual([a.index, a.input, a.url, a.status], [b.index, b.input, b.url, b.status]);
    }
    assert.ok(
      origin.server.paths.every((p) => p.length < 1000),
      "the over-long line reached no server",
    );
  });

  it("submit: an input over the URL limit is stored cut, fails invalid-url; long chunks are cut early", {
    timeout: 60_000,
  }, async () => {
    const queue = `longlib${process.pid}`;
    // ftp: these fail at once without a request; what matters is how they are stored.
    const WIDE = 60_000;
    const wide = Array.from({ length: 160 }, (_, i) => `ftp://x.test/${i}/${"b".repeat(WIDE)}`);
    const tooLong = `ftp://x.test/${"c".repeat(MAX_URL_LENGTH)}`;
    const inputs = [...wide.slice(0, 40), tooLong, ...wide.slice(40)];
    const fleet = createFleet({ redis: testRedisUrl(), queue });
    const admin = createRedisClient({ url: testRedisUrl() });
    await admin.connect();
    try {
      const got = await withWorker(queue, async () => {
        const { job, count } = await fleet.submit(inputs);
        assert.equal(count, inputs.length);
        const out: Outcome[] = [];
        for await (const o of fleet.results(job)) out.push(o);
        const keys = jobKeys(queue, job);
        // 161 inputs of about 60,000 characters: two chunks of the default 100 by count, more
        // by size, none holding more than MAX_CHUNK_CHARS of inputs (plus the one that crossed it).
        const chunks = Number(await admin.hGet(keys.meta, "chunks"));
        assert.ok(chunks >= 3, `${chunks} chunks`);
        for (let c = 0; c < chunks; c++) {
          const stored = JSON.parse((await admin.get(keys.chunk(c))) ?? "[]") as { input: string }[];
          const chars = stored.reduce((sum, o) => sum + o.input.length, 0);
          assert.ok(chars < MAX_CHUNK_CHARS + WIDE + 100, `chunk ${c} holds ${chars} characters of input`);
        }
        return out;
      });
      assert.deepEqual(
        got.map((o) => o.index),
        inputs.map((_, i) => i),
      );
      const cut = got[40];
      assert.ok(cut !== undefined && !cut.ok);
      assert.equal(cut.error.code, "invalid-url");
      assert.equal(cut.error.name, "UrlError");
      assert.match(cut.error.message, /over the limit of 65536/);
      assert.equal(cut.input, `${tooLong.slice(0, 64)}…`);
      for (const o of got.filter((o) => o.index !== 40)) {
        assert.ok(!o.ok);
        assert.equal(o.error.code, "unsupported-scheme");
        assert.equal(o.input, inputs[o.index]);
      }
    } finally {
      await admin.close();
      await fleet.close();
    }
  });
});
