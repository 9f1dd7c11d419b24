import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createFleet, type FleetOutcome } from "../../src/fleet/index.js";
import { decodeOutcome } from "../../src/fleet/outcome-codec.js";
import { isBlankLine } from "../../src/url/blank-line.js";
import { testRedisUrl } from "../helpers/redis-server.js";

// Issue 23, item 4: a blank input line failed as `invalid-url` in the fleet where `canonurl`
// answers it as blank (not a failure). The command line's `fleet results` mapped it on its own;
// the library (`fleet.results()`, `fleet.progress()`) still said invalid-url. Now the worker
// answers it, so every reader of the fleet sees what a local run prints.

// Every input fails or is answered before any request: ftp: and "not a url" are refused by the
// parser, blanks never reach the client. The worker's client may dial nothing (no address allowed).
const INPUTS = ["", "ftp://a.test/", " \t", "not a url", "\u0001\u001f \r", "http://"];
const BLANK = [0, 2, 4];

describe("fleet: a blank input line is answered as canonurl answers it (issue 23)", () => {
  it("fleet.results() yields a BlankOutcome, progress counts it done and not failed", {
    timeout: 60_000,
  }, async () => {
    const queue = `blank${process.pid}`;
    const options = {
      redis: testRedisUrl(),
      queue,
      client: { resolver: async () => [] as string[], allowedPorts: [9] },
    };
    const fleet = createFleet(options);
    const worker = createFleet(options);
    const stop = new AbortController();
    const running = worker.work({ concurrency: 2, signal: stop.signal });
    try {
      const { job } = await fleet.submit(INPUTS, { chunkSize: 4 });
      const got: FleetOutcome[] = [];
      for await (const o of fleet.results(job)) got.push(o);
      assert.deepEqual(
        got.map((o) => o.index),
        INPUTS.map((_, i) => i),
      );
      for (const o of got) {
        if (BLANK.includes(o.index)) {
          assert.ok("blank" in o && o.blank === true && o.ok, JSON.stringify(o));
          assert.equal(o.input, INPUTS[o.index]);
          assert.deepEqual([o.result.url, o.result.source, o.result.chain], ["", "initial", []]);
        } else {
          assert.ok(!o.ok && !("blank" in o), JSON.stringify(o));
          assert.equal(o.error.code, o.input === "ftp://a.test/" ? "unsupported-scheme" : "invalid-url");
        }
      }
      assert.deepEqual(await fleet.progress(job), {
        total: INPUTS.length,
        done: INPUTS.length,
        failed: INPUTS.length - BLANK.length,
      });
    } finally {
      stop.abort();
      await running;
      await worker.close();
      await fleet.close();
    }
  });

  it("a blank input an earlier worker stored as invalid-url reads as blank; nothing else changes", () => {
    const stored = (input: string, code: string) =>
      ({ index: 7, input, ok: false, error: { code, name: "UrlError", message: "m" } }) as const;
    const legacy = decodeOutcome(stored(" ", "invalid-url"));
    assert.ok("blank" in legacy && legacy.ok);
    assert.equal(legacy.index, 7);
    // A blank input that failed for another reason (a worker died on it) keeps its failure, and an
    // invalid input that is not blank stays invalid.
    const poison = decodeOutcome(stored("", "internal"));
    assert.ok(!poison.ok);
    assert.equal(poison.error.code as string, "internal");
    const invalid = decodeOutcome(stored("x y", "invalid-url"));
    assert.ok(!invalid.ok && invalid.error.code === "invalid-url");
  });

  it("the blank rule (one for the command line and the fleet) is what the URL parser trims away (fast-check, fixed seed)", () => {
    // Characters around the edge of the rule: C0 controls, space, the first printable, DEL, NBSP
    // and a line separator (not trimmed by the URL parser: not blank).
    const edge = fc.constantFrom(
      "\u0000",
      "\t",
      "\n",
      "\r",
      "\u001f",
      " ",
      "!",
      "\u007f",
      "\u00a0",
      "\u2028",
      "a",
    );
    let blanks = 0;
    let others = 0;
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 6 }), (chars) => {
        const input = chars.join("");
        const blank = isBlankLine(input);
        if (blank) blanks++;
        else others++;
        // The URL parser itself is the oracle: what it trims away entirely (WHATWG URL §4.4 steps 1
        // and 3) leaves a reference to the base itself.
        return blank === (new URL(input, "http://base.test/x").href === "http://base.test/x");
      }),
      { seed: 23, numRuns: 2000 },
    );
    assert.ok(blanks > 100 && others > 100, `both sides reached: ${blanks} blank, ${others} not`);
  });
});
