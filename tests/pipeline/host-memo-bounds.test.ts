import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hostFacts } from "../../src/pipeline/host-options.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { ruleLookup } from "../../src/pipeline/rule-lookup.js";

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
});
