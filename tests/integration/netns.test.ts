import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

// Tests that could dial a non-loopback address if the code were wrong run in a fresh network
// namespace with only lo up (architecture.md, "Testing without the internet").
const canUnshare = spawnSync("unshare", ["-rn", "true"]).status === 0;

// Without this the inner `node --test` sees it runs under a test runner and reports in the
// runner's private protocol instead of TAP.
const env = { ...process.env };
delete env.NODE_TEST_CONTEXT;

describe("resolve-flow tests in a loopback-only network namespace", {
  skip: canUnshare ? false : "unshare -rn is not permitted here",
}, () => {
  const files = readdirSync(fromRoot("build", "tests", "netns")).filter(
    (f) => f.startsWith("flow-") && f.endsWith(".netns.js"),
  );

  it("found the namespace test files", () => {
    assert.ok(files.length > 0);
  });

  for (const file of files) {
    it(file, () => {
      const run = spawnSync(
        "unshare",
        [
          "-rn",
          "sh",
          "-c",
          `ip link set lo up && exec node --test --test-reporter=tap build/tests/netns/${file}`,
        ],
        { cwd: fromRoot(), encoding: "utf8", timeout: 60_000, env },
      );
      const failed = /^# fail (\d+)/m.exec(run.stdout)?.[1];
      const passed = /^# pass (\d+)/m.exec(run.stdout)?.[1];
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.equal(failed, "0");
      assert.ok(Number(passed) > 0, run.stdout);
    });
  }
});
