import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import { runNetworkMode } from "../../src/cli/commands/network-mode.js";
import type { InputLine } from "../../src/cli/io/line-splitter.js";
import { routes, type Site, startSite, text } from "./site.js";

function capture() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr }, out: () => out, err: () => err };
}

async function* from(list: InputLine[]): AsyncGenerator<InputLine> {
  yield* list;
}

describe("network mode: blank and over-long lines (issue 11, 12)", () => {
  let site: Site;
  before(async () => {
    site = await startSite(routes({ "/fast": text() }));
  });
  after(() => site.close());

  it("a blank line prints a blank line and is no failure; the others still resolve in order", async () => {
    const { io, out, err } = capture();
    const inputs = [site.url("/fast"), "", " \t", site.url("/fast")];
    const code = await runNetworkMode(from(inputs), site.options(), { json: false, concurrency: 3 }, io);
    assert.equal(code, 0, err());
    assert.equal(out(), `${site.url("/fast")}\n\n\n${site.url("/fast")}\n`);
    assert.equal(err(), "");
  });

  it("--json: a blank line is an ok object with blank: true; an over-long line an invalid-url failure", async () => {
    const { io, out } = capture();
    const overlong = { prefix: "http://a.test/xxxx", bytes: 2_000_000 };
    const inputs: InputLine[] = [" ", overlong, site.url("/fast")];
    const code = await runNetworkMode(from(inputs), site.options(), { json: true, concurrency: 2 }, io);
    assert.equal(code, 1);
    const [blank, long, ok] = out()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(blank, {
      index: 0,
      input: " ",
      ok: true,
      blank: true,
      url: "",
      source: "initial",
      chain: [],
      ruleApplied: null,
      paramsStripped: [],
    });
    assert.equal(long.index, 1);
    assert.equal(long.input, "http://a.test/xxxx…");
    assert.equal(long.error.code, "invalid-url");
    assert.match(long.error.message, /line of 2000000 bytes is over the 1048576-byte line limit/);
    assert.equal(ok.url, site.url("/fast"));
    // The over-long line's prefix names a host of the site: it must not have been requested.
    assert.equal(
      site.log.some((l) => l.includes("xxxx")),
      false,
    );
  });
});
