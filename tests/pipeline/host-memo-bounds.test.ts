import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { hostFacts } from "../../src/pipeline/host-options.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";

// What `loop` (a script body with `normalize` in scope) leaves on the heap, in MiB: run in a
// process of its own with the collector exposed, measured between two collections.
function retainedMiB(loop: string): number {
  const indexUrl = new URL("../../src/index.js", import.meta.url).href;
  const script = `
    const { normalize } = await import(${JSON.stringify(indexUrl)});
    globalThis.gc();
    const before = process.memoryUsage().heapUsed;
    ${loop}
    globalThis.gc();
    console.log(process.memoryUsage().heapUsed - before);`;
  const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim()) / 2 ** 20;
}

// A stream of links on ever new hosts (a crawl frontier, a hostile batch) must not grow the per-host
// memos without end. hostFacts keeps at most 1,024 hosts per options object and starts over past
// that: its answers are frozen objects, so whether a host's answer is the remembered one or a new
// one shows whether the memo still holds it.
describe("the per-host memos are bounded", () => {
  it("hostFacts remembers 1,024 hosts, then starts over, and answers the same throughout", () => {
    const options = resolveNormalizeOptions(undefined);
    const lookup = ruleLookup(options.rules);
    const first = hostFacts(options, lookup, "h0.example.test");
    // 1,023 other hosts: the memo holds 1,024, h0 among them.
    for (let i = 1; i < 1024; i++) hostFacts(options, lookup, `h${i}.example.test`);
    assert.equal(hostFacts(options, lookup, "h0.example.test"), first, "h0 is still remembered");
    // Past the bound: one more host empties the memo before it is stored.
    hostFacts(options, lookup, "h1024.example.test");
    const again = hostFacts(options, lookup, "h0.example.test");
    assert.notEqual(again, first, "the memo was not emptied past 1,024 hosts");
    assert.deepEqual(again, first, "a host's facts do not depend on the memo");
    // A claimed host and its tracking options come back the same after the memo starts over.
    const youtube = hostFacts(options, lookup, "youtu.be");
    for (let i = 0; i < 2048; i++) hostFacts(options, lookup, `n${i}.example.test`);
    const youtubeAgain = hostFacts(options, lookup, "youtu.be");
    assert.equal(youtubeAgain.claimed, true);
    assert.equal(
      youtubeAgain.options,
      youtube.options,
      "the host's options object is kept apart, by its lists",
    );
    assert.equal(youtubeAgain.options.isTracking("si"), true);
  });

  it("keeps no long link alive through a host name it remembers", () => {
    // Its own process with the collector exposed. 1,024 links of 60,000 characters on as many
    // hosts, half of them on a host a rule claims (the rule matcher's memo): the memos fill, and a
    // host name sliced off the text (the text lane never parses) would be a view that keeps its
    // whole link: 59 MiB before the keys were copied.
    const mib = retainedMiB(`
    for (let i = 0; i < 1024; i++) {
      const host = i % 2 === 0 ? "h" + String(i).padStart(8, "0") + ".example.test" : "h" + String(i).padStart(8, "0") + ".youtube.com";
      normalize("https://" + host + "/watch?v=abc&x=" + "a".repeat(60000) + i);
    }`);
    // The memos' own entries are well under a MiB; one link kept per 64 would already be 1 MiB.
    assert.ok(mib < 4, `${mib.toFixed(2)} MiB retained after 1,024 long links`);
  });

  it("holds at most 1,024 authority texts of links on hosts the parser rewrites, and none of the links", () => {
    // serializedAuthority remembers its answer per authority text (IDN hosts among them).
    // 20,000 links of 30,000 characters on as many IDN hosts of 200 characters: unbounded, the
    // texts and answers alone would be ~15 MiB, and one link kept per key 1.1 GiB.
    const mib = retainedMiB(`
    const tail = "/" + "a".repeat(30000);
    for (let i = 0; i < 20000; i++) {
      const label = ("b\u00fccher" + i).padEnd(60, "x");
      normalize("https://" + label + "." + label + "." + label + ".example" + tail + i);
    }`);
    assert.ok(mib < 4, `${mib.toFixed(2)} MiB retained after 20,000 links on new hosts`);
  });

  it("keeps no options object made for one call alive through the authority memo", () => {
    // normalize(url, { keepParams }) resolves a new options object per call. The authority memo's
    // records keep host facts for the presets' own options only: holding each record's last
    // options would keep 1,024 of them (and their lists) alive.
    const mib = retainedMiB(`
    for (let i = 0; i < 6000; i++) {
      const keep = Array.from({ length: 200 }, (_, k) => "keep" + i + "_" + k);
      normalize("https://h" + (i % 2000) + ".example.test/a?b=1", { keepParams: keep, extraTrackingParams: keep.map((k) => "x" + k) });
    }`);
    assert.ok(mib < 4, `${mib.toFixed(2)} MiB retained after 6,000 calls with options of their own`);
  });
});
