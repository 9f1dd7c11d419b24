import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import { networkOptionsFromFlags, runNetworkMode } from "../../src/cli/commands/network-mode.js";
import { UsageError } from "../../src/cli/io/io.js";
import { redirect, routes, type Site, startSite, text } from "./site.js";

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

async function* from(list: string[], onPull?: () => void): AsyncGenerator<string> {
  for (const item of list) {
    onPull?.();
    yield item;
  }
}

describe("CLI network mode (in-process)", () => {
  let site: Site;
  let pulls = 0;
  let pullsWhenSlowAnswered = -1;
  before(async () => {
    site = await startSite(
      routes({
        "/slow": (q, r) =>
          setTimeout(() => {
            pullsWhenSlowAnswered = pulls;
            text()(q, r);
          }, 300),
        "/fast": text(),
        "/old?utm_source=x": redirect("/fast"),
      }),
    );
  });
  after(() => site.close());

  it("prints one canonical URL per input in input order; failures as empty lines plus stderr", async () => {
    const { io, out, err } = captureIo();
    const inputs = [site.url("/slow"), site.url("/old?utm_source=x"), "ftp://a.test/", site.url("/fast")];
    const code = await runNetworkMode(from(inputs), site.options(), { json: false, concurrency: 4 }, io);
    assert.equal(code, 1);
    assert.equal(out(), `${site.url("/slow")}\n${site.url("/fast")}\n\n${site.url("/fast")}\n`);
    assert.match(err(), /^2\tftp:\/\/a\.test\/\tunsupported-scheme: .+\n$/);
  });

  it("exits 0 when every input succeeds", async () => {
    const { io } = captureIo();
    assert.equal(
      await runNetworkMode(from([site.url("/fast")]), site.options(), { json: false, concurrency: 2 }, io),
      0,
    );
  });

  it("prints NDJSON with chain, source, verified and cached", async () => {
    const { io, out, err } = captureIo();
    const code = await runNetworkMode(
      from([site.url("/old?utm_source=x"), "http://[::1"]),
      site.options(),
      { json: true, concurrency: 2 },
      io,
    );
    assert.equal(code, 1);
    assert.equal(err(), "");
    const [ok, bad] = out()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.deepEqual(Object.keys(ok), [
      "index",
      "input",
      "ok",
      "url",
      "source",
      "chain",
      "ruleApplied",
      "paramsStripped",
      "verified",
      "cached",
    ]);
    assert.equal(ok.index, 0);
    assert.equal(ok.cached, false);
    assert.equal(ok.url, site.url("/fast"));
    assert.equal(ok.source, "redirect");
    assert.equal(ok.verified, true);
    assert.deepEqual(
      ok.chain.map((hop: { status: number }) => hop.status),
      [301, 200],
    );
    assert.deepEqual(bad, {
      index: 1,
      input: "http://[::1",
      ok: false,
      error: { code: "invalid-url", message: bad.error.message },
    });
  });

  it("bounds the reorder window: a slow first URL stalls the intake", async () => {
    const { io, out } = captureIo();
    pulls = 0;
    const inputs = [site.url("/slow"), ...Array.from({ length: 20 }, () => site.url("/fast"))];
    await runNetworkMode(
      from(inputs, () => pulls++),
      site.options(),
      { json: false, concurrency: 3 },
      io,
    );
    assert.ok(pullsWhenSlowAnswered >= 1 && pullsWhenSlowAnswered <= 3, `pulled ${pullsWhenSlowAnswered}`);
    assert.equal(out().split("\n").length, 22);
  });

  it("parses the network flags and refuses bad values as usage errors", () => {
    assert.deepEqual(networkOptionsFromFlags({}), { options: {}, concurrency: 8 });
    assert.deepEqual(
      networkOptionsFromFlags({ concurrency: "16", "max-hops": "0", timeout: "5000", "allow-private": true }),
      { options: { maxHops: 0, totalTimeoutMs: 5000, allowPrivateNetworks: true }, concurrency: 16 },
    );
    for (const [flag, value] of [
      ["concurrency", "0"],
      ["concurrency", "x"],
      ["max-hops", "-1"],
      ["max-hops", "1.5"],
      ["timeout", "0"],
      ["timeout", "1e3"],
    ] as const) {
      assert.throws(
        () => networkOptionsFromFlags({ [flag]: value }),
        (e) => e instanceof UsageError && e.message.includes(`--${flag}`),
      );
    }
  });

  it("turns invalid client options into a usage error", async () => {
    const { io } = captureIo();
    await assert.rejects(
      runNetworkMode(from([]), { maxHops: -1 }, { json: false, concurrency: 1 }, io),
      (e) => e instanceof UsageError && /maxHops/.test(e.message),
    );
  });
});
