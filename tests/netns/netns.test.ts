import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

// Tests that hand the transport non-loopback addresses run in a private, loopback-only network
// namespace (user + net namespaces, no root needed), never on the host network.
const probe = spawnSync("unshare", ["-rn", "true"], { stdio: "ignore" });
const unavailable =
  probe.status === 0
    ? false
    : `SKIPPED LOUDLY: "unshare -rn" does not work here (${probe.error?.message ?? `exit ${probe.status}`}); the SSRF namespace tests did not run`;
if (unavailable) console.warn(unavailable);

function runInNamespace(file: string): { status: number | null; output: string } {
  const result = spawnSync(
    "unshare",
    [
      "-rn",
      "sh",
      "-c",
      'ip link set lo up && exec "$0" --test --test-reporter=tap "$1"',
      process.execPath,
      fromRoot("build", "tests", "netns", file),
    ],
    // node:test marks its children with NODE_TEST_CONTEXT, and a nested `node --test` that sees it
    // silently runs nothing; the namespace run is a fresh, top-level test run.
    {
      cwd: fromRoot(),
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, NODE_TEST_CONTEXT: undefined },
    },
  );
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe("SSRF tests inside a loopback-only network namespace", { skip: unavailable }, () => {
  it("rebinding, private/public answers and the system resolver (tests/netns/ssrf.netns.ts)", () => {
    const { status, output } = runInNamespace("ssrf.netns.js");
    assert.equal(status, 0, output);
    assert.match(output, /^# fail 0$/m, output);
    const pass = Number(/^# pass (\d+)$/m.exec(output)?.[1] ?? "0");
    assert.equal(pass, 7, `expected the 7 namespace tests to pass:\n${output}`);
  });
});
