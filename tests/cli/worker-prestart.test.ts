import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { earlyThreads, MAX_WORKERS, threadsWanted } from "../../src/cli/workers/worker-prestart.js";

describe("threadsWanted: the workers bin.js starts before the command line loads", () => {
  it("an offline canonicalizing run with --workers N (2 to the maximum) wants N threads", () => {
    assert.equal(threadsWanted(["--offline", "--workers", "2"]), 2);
    assert.equal(threadsWanted(["--workers=3", "--json", "--offline", "-"]), 3);
    assert.equal(threadsWanted(["--offline", "--workers", String(MAX_WORKERS)]), MAX_WORKERS);
    // The last --workers wins, as parseArgs has it.
    assert.equal(threadsWanted(["--offline", "--workers", "5", "--workers", "2"]), 2);
  });

  it("anything else wants the main thread alone", () => {
    for (const argv of [
      [],
      ["--offline"],
      ["--workers", "2"],
      ["--offline", "--workers", "1"],
      ["--offline", "--workers", "0"],
      ["--offline", "--workers", String(MAX_WORKERS + 1)],
      ["--offline", "--workers", "two"],
      ["--offline", "--workers"],
      ["explain", "--offline", "--workers", "2"],
      ["classify", "--offline", "--workers", "2"],
      // After `--` every argument is an input, not a flag.
      ["--", "--offline", "--workers", "2"],
    ]) {
      assert.equal(threadsWanted(argv), 1, argv.join(" "));
    }
  });
});

describe("earlyThreads: no more threads started early than the machine has cores", () => {
  it("caps what the arguments ask for at the cores, and never goes below the main thread", () => {
    assert.equal(earlyThreads(["--offline", "--workers", "64"], 2), 2);
    assert.equal(earlyThreads(["--offline", "--workers", "3"], 8), 3);
    assert.equal(earlyThreads(["--offline", "--workers", "3"], 3), 3);
    assert.equal(earlyThreads(["--offline", "--workers", "4"], 1), 1);
    assert.equal(earlyThreads(["--offline"], 8), 1);
    assert.equal(earlyThreads(["--workers", "8"], 8), 1);
  });
});
