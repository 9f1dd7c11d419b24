import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { tempDir } from "../helpers/temp-dir.js";

// A run whose point is its arguments and output calls main() in this process (runMain): no Node
// start per case. The first case of a table and every run whose point is the process (--workers
// threads, stdin on a pipe, network mode, large streamed inputs) spawn the built binary (runCli).

describe("canonurl --offline (the built binary)", () => {
  it("canonicalizes arguments, one line each, exit 0", async () => {
    const r = await runCli([
      "--offline",
      "HTTP://Example.COM:80/a/./b/../c/?gclid=1",
      "example.com/x/?b=2&a=1",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "http://example.com/a/c\nhttp://example.com/x?a=1&b=2\n");
    assert.equal(r.stderr, "");
  });

  it("reads stdin line by line, keeps input order, reports failures on stderr, exit 1", async () => {
    const r = await runCli(["--offline"], "http://b.test/\r\nftp://x.test/\n\nhttp://a.test/?utm_source=x\n");
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "http://b.test/\n\n\nhttp://a.test/\n");
    // The blank line 2 prints a blank line and is not a failure: only the ftp line is reported.
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0] ?? "", /^1\tftp:\/\/x\.test\/\tunsupported-scheme: /);
  });

  it("--json prints one object per input", async () => {
    const r = await runMain(["--offline", "--json", "http://a.test/?b=1&utm_medium=x", "nope://x"]);
    assert.equal(r.code, 1);
    const [ok, bad] = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(ok, {
      index: 0,
      input: "http://a.test/?b=1&utm_medium=x",
      ok: true,
      url: "http://a.test/?b=1",
      source: "initial",
      chain: [],
      ruleApplied: null,
      paramsStripped: ["utm_medium"],
    });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.code, "unsupported-scheme");
  });

  it("honours --preset, --no-sort, --trailing-slash and --keep-param", async () => {
    const url = "http://a.test/p/?b=1&a=2&fbclid=x";
    const run = async (...flags: string[]) => (await runMain(["--offline", ...flags, url])).stdout.trim();
    assert.equal(await run(), "http://a.test/p?a=2&b=1");
    assert.equal(await run("--preset", "rfc3986"), "http://a.test/p/?b=1&a=2&fbclid=x");
    assert.equal(await run("--no-sort"), "http://a.test/p?b=1&a=2");
    assert.equal(await run("--trailing-slash", "keep"), "http://a.test/p/?a=2&b=1");
    assert.equal(await run("--keep-param", "fbclid"), "http://a.test/p?a=2&b=1&fbclid=x");
  });

  it("usage errors exit 2 with a hint", async () => {
    for (const args of [
      ["--bogus"],
      ["--preset", "loose", "--offline", "x"],
      ["--offline", "--trailing-slash"],
    ]) {
      const r = await runMain(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /canonurl --help/);
      assert.equal(r.stdout, "");
    }
  });

  it("--rules FILE adds user rules before the built-ins; bad rules exit 2 listing every problem", async () => {
    const dir = tempDir("canonurl-rules-");
    const good = join(dir, "rules.yaml");
    writeFileSync(
      good,
      "- name: mine-v1\n  domains: [example.com, www.example.com]\n  canonicalHost: www.example.com\n  stripParams: [sid]\n",
    );
    const ok = await runMain([
      "--offline",
      "--rules",
      good,
      "http://example.com/a?sid=1&x=2",
      "https://youtu.be/dQw4w9WgXcQ",
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, "http://www.example.com/a?x=2\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n");
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify([{ domains: [], pathPatterns: [{ match: "/a/{id}", rewrite: "/b/{nope}" }] }]),
    );
    const r = await runMain(["--offline", "--rules", bad, "http://a.test/"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\[0\]\.name/);
    assert.match(r.stderr, /\[0\]\.domains/);
    assert.match(r.stderr, /\[0\]\.pathPatterns\[0\]\.rewrite/);
    const missing = await runMain(["--offline", "--rules", join(dir, "nope.yaml"), "http://a.test/"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read --rules file/);
  });

  it("--help prints usage and exits 0", async () => {
    const r = await runMain(["--help"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /canonurl \[options\] \[URL\.\.\.\]/);
  });

  it("streams a large input in constant memory", async () => {
    const n = 20_000;
    const input = Array.from(
      { length: n },
      (_, i) => `HTTP://Host${i % 97}.test/a/../b/?utm_source=${i}&k=${i}`,
    ).join("\n");
    const r = await runCli(["--offline"], input);
    assert.equal(r.code, 0);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, n);
    assert.equal(lines[12_345], "http://host26.test/b?k=12345");
  });
});

describe("canonurl explain", () => {
  it("prints each stage", async () => {
    const r = await runCli(["explain", "http://a.test/x/?utm_source=1&b=2#f"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^parse +http:\/\/a\.test\/x\/\?utm_source=1&b=2#f$/m);
    assert.match(r.stdout, /^generic +http:\/\/a\.test\/x\?b=2$/m);
    assert.match(r.stdout, /^canonical +http:\/\/a\.test\/x\?b=2$/m);
    assert.match(r.stdout, /^stripped +utm_source$/m);
  });
  it("--json prints the Explanation", async () => {
    const r = await runMain(["explain", "--json", "http://a.test/?gclid=1"]);
    const e = JSON.parse(r.stdout);
    assert.equal(e.canonical, "http://a.test/");
    assert.deepEqual(e.paramsStripped, ["gclid"]);
  });
  it("fails with exit 1 on a bad URL and 2 without one", async () => {
    assert.equal((await runMain(["explain", "ftp://x"])).code, 1);
    assert.equal((await runMain(["explain"])).code, 2);
  });
});
