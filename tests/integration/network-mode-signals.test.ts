// Issue 11: SIGINT/SIGTERM in the network CLI write the finished in-order prefix, say where they
// stopped, and exit 130/143 (in-process here, with an EventEmitter for the signals; the built binary
// with real signals is tests/netns/flow-cli-signal.netns.ts).
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import { runNetworkMode } from "../../src/cli/commands/network-mode.js";
import { type Site, startSite, text } from "./site.js";

function captureIo(): {
  io: { stdin: PassThrough; stdout: PassThrough; stderr: PassThrough };
  out: () => string;
  err: () => string;
} {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr }, out: () => out, err: () => err };
}

describe("CLI network mode stopped by a signal (in-process)", () => {
  let site: Site;
  before(async () => {
    site = await startSite((request, response) => {
      if ((request.url ?? "").startsWith("/hang")) return; // never answers
      text()(request, response);
    });
  });
  after(() => site.close());

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal}: writes the finished prefix in order, names the index, exits ${code}`, {
      timeout: 10_000,
    }, async () => {
      const { io, out, err } = captureIo();
      const signals = new EventEmitter();
      // Inputs 0-1 finish, 2 hangs, 3-4 finish but sit behind it; then the source stalls forever
      // (a stdin that is still open).
      const urls = ["/a", "/b", "/hang", "/c", "/d"].map((path) => site.url(`${path}?${signal}`));
      async function* inputs(): AsyncGenerator<string> {
        yield* urls;
        await new Promise(() => {});
      }
      const run = runNetworkMode(inputs(), site.options(), { json: false, concurrency: 8 }, io, signals);
      // Wait until everything but the hanging input has been answered.
      const answered = (): number =>
        site.log.filter((l) => l.endsWith(`?${signal}`) && !l.includes("/hang")).length;
      while (answered() < 4) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      signals.emit(signal);
      const exit = await run;
      assert.equal(exit, code);
      assert.equal(out(), `${urls[0]}\n${urls[1]}\n`, "exactly the in-order prefix");
      assert.equal(err(), `canonurl: stopped by ${signal} at input 2; 2 inputs written\n`);
      assert.equal(
        signals.listenerCount("SIGTERM") + signals.listenerCount("SIGINT"),
        0,
        "listeners removed",
      );
    });
  }

  it("a run that ends normally leaves no signal listener behind", async () => {
    const { io } = captureIo();
    const signals = new EventEmitter();
    const exit = await runNetworkMode(
      (async function* () {
        yield site.url("/a");
      })(),
      site.options(),
      { json: false, concurrency: 2 },
      io,
      signals,
    );
    assert.equal(exit, 0);
    assert.equal(signals.listenerCount("SIGTERM") + signals.listenerCount("SIGINT"), 0);
  });
});
