import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { clearUrlsLayer, clearUrlsRules, defaultRules, normalize, ssurt, surt } from "../../src/index.js";
import { runCli } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { tempDir } from "../helpers/temp-dir.js";

// A run whose point is its arguments and output calls main() in this process (runMain): no Node
// start per case. The first case of a table and every run whose point is the process (--workers
// threads, stdin on a pipe, network mode, large streamed inputs) spawn the built binary (runCli).

const INPUTS = [
  "http://www.Example.com/a?b=1&a=2#x",
  "HTTPS://foo.test:8443/Caf%C3%A9/./x/?utm_source=n&Q=1",
  "http://user@foo.example.org:81/path?query",
  "http://10.0.0.1/x",
];

describe("canonurl --format (the built binary)", () => {
  it("--format surt prints the SURT of each canonical URL, in input order", async () => {
    const r = await runCli(["--offline", "--format", "surt", ...INPUTS]);
    assert.equal(r.code, 0, r.stderr);
    const want = INPUTS.map((u) => surt(normalize(u), { preset: "none" }));
    assert.equal(r.stdout, `${want.join("\n")}\n`);
    // The Archive's form, spelled out for one: www dropped, host reversed, query sorted.
    assert.equal(r.stdout.split("\n")[0], "com,example)/a?a=2&b=1");
  });

  it("--format ssurt prints the SSURT of each canonical URL", async () => {
    const r = await runMain(["--offline", "--format", "ssurt", ...INPUTS]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${INPUTS.map((u) => ssurt(normalize(u))).join("\n")}\n`);
    assert.equal(r.stdout.split("\n")[0], "com,example,www,//http:/a?a=2&b=1");
  });

  it("the key follows the normalization flags", async () => {
    const input = "http://example.com/a/?b=1&a=2";
    const sorted = await runMain(["--offline", "--format", "surt", input]);
    const rfc = await runMain(["--offline", "--preset", "rfc3986", "--format", "ssurt", input]);
    assert.equal(sorted.stdout, "com,example)/a?a=2&b=1\n");
    assert.equal(rfc.stdout, "com,example,//http:/a/?b=1&a=2\n");
  });

  it("a failed input prints an empty line and its error, as with --format url", async () => {
    const r = await runMain(["--offline", "--format", "surt"], "http://a.test/x\nftp://b.test/\n\n");
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "test,a)/x\n\n\n");
    assert.match(r.stderr, /^1\tftp:\/\/b\.test\/\tunsupported-scheme: /);
  });

  it("--json keeps url the canonical URL and adds the key under the format's name", async () => {
    const r = await runMain(["--offline", "--json", "--format", "surt", "http://www.Example.com/a?b=1"]);
    assert.equal(r.code, 0, r.stderr);
    const line = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(line.url, "http://www.example.com/a?b=1");
    assert.equal(line.surt, "com,example)/a?b=1");
    assert.equal(line.ssurt, undefined);
  });

  it("--workers 2 prints the same bytes as one thread", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `http://www${i % 3}.s${i}.test/P/${i}/?z=${i}&a=1`);
    const stdin = `${lines.join("\n")}\n`;
    const one = await runMain(["--offline", "--format", "surt"], stdin);
    const two = await runCli(["--offline", "--workers", "2", "--format", "surt"], stdin);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(two.stdout, one.stdout);
    assert.equal(one.stdout.split("\n")[7], "test,s7)/p/7?a=1&z=7");
  });

  it("a bad value, or a key asked for in network mode, is a usage error before any input is read", async () => {
    const bad = await runMain(["--offline", "--format", "cdx", "http://a.test/"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format must be url, surt or ssurt, got 'cdx'/);
    const network = await runMain(["--format", "surt", "http://a.test/"]);
    assert.equal(network.code, 2);
    assert.match(network.stderr, /--format surt needs --offline/);
    assert.equal(network.stdout, "");
  });
});

describe("canonurl --rules clearurls (the built binary)", () => {
  // _from is the pack's alone; _trkparms, _trksid, hash and amdata are host-scoped tracking on eBay
  // too (issue 22 part 2); epid (the catalogue product) is content.
  const EBAY =
    "https://www.ebay.com/itm/123456789012?_from=R40&_trkparms=amclksrc%3DITM&_trksid=p2047675&hash=item1cbe&amdata=enc%3A1&epid=99";

  it("applies the ClearURLs pack as a tracking layer after the built-in rules", async () => {
    const without = await runMain(["--offline", EBAY]);
    const with_ = await runCli(["--offline", "--json", "--rules", "clearurls", EBAY]);
    assert.equal(with_.code, 0, with_.stderr);
    const line = JSON.parse(with_.stdout) as { url: string; ruleApplied: string };
    assert.equal(line.url, "https://www.ebay.com/itm/123456789012?epid=99");
    // A layer claims no URL (issue 22): no rule shaped it, the layer cleaned it.
    assert.equal(line.ruleApplied, null);
    assert.notEqual(without.stdout.trimEnd(), line.url, "the built-in rules alone leave eBay's trackers");
    // The library with the same layer gives the same answer, and so does the older rules form here.
    assert.equal(line.url, normalize(EBAY, { trackingLayers: [clearUrlsLayer()] }));
    assert.equal(line.url, normalize(EBAY, { rules: [...defaultRules, ...clearUrlsRules()] }));
  });

  it("a built-in rule still claims its URLs first", async () => {
    const r = await runMain([
      "--offline",
      "--json",
      "--rules",
      "clearurls",
      "https://youtu.be/dQw4w9WgXcQ?si=x",
    ]);
    const line = JSON.parse(r.stdout) as { url: string; ruleApplied: string };
    assert.equal(line.url, "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    assert.match(line.ruleApplied, /^youtube/);
  });

  it("with --preset rfc3986 the pack is the only rule list; with --workers 2 it runs in every thread", async () => {
    const rfc = await runMain(["--offline", "--preset", "rfc3986", "--rules", "clearurls", EBAY]);
    assert.equal(rfc.stdout, "https://www.ebay.com/itm/123456789012?amdata=enc%3A1&epid=99\n");
    const stdin = `${Array.from({ length: 2000 }, (_, i) => `${EBAY}&n=${i}`).join("\n")}\n`;
    const one = await runMain(["--offline", "--rules", "clearurls"], stdin);
    const two = await runCli(["--offline", "--workers", "2", "--rules", "clearurls"], stdin);
    assert.equal(two.stdout, one.stdout);
    assert.equal(one.stdout.split("\n")[5], "https://www.ebay.com/itm/123456789012?epid=99&n=5");
  });

  it("names the pack only as the bare word: a path to a file called clearurls is read as rules", async () => {
    const dir = tempDir("canonurl-clearurls-");
    const file = join(dir, "clearurls");
    writeFileSync(file, "- name: shop-v1\n  domains: [shop.test]\n  stripParams: [sid]\n");
    const r = await runMain(["--offline", "--rules", file, "http://shop.test/x?sid=1&id=2"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "http://shop.test/x?id=2\n");
  });

  it("contradicting flags are usage errors", async () => {
    const r = await runMain(["--offline", "--rules", "clearurls", "--no-rules", "http://a.test/"]);
    assert.equal(r.code, 2);
    const amazon = await runMain([
      "--offline",
      "--preset",
      "rfc3986",
      "--amazon-host",
      "com",
      "--rules",
      "clearurls",
      "http://a.test/",
    ]);
    assert.equal(amazon.code, 2);
    assert.match(amazon.stderr, /--amazon-host/);
  });
});
