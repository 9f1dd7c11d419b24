import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { type CliRun, runCli } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";

// Issue 12: an invalid URL's report says why, when the parser can tell. The reasons come from the
// library; this holds every command of the binary to passing them through (offline, --json,
// explain, and network mode, where these inputs fail before any connection).
const CASES = [
  ["http://a.test:99999/", /port 99999 is out of range \(0-65535\)/],
  ["http://a b.test/", /forbidden host character " " \(U\+0020\)/],
  ["http://a<b/", /forbidden host character "<" \(U\+003C\)/],
  ["http://:80/", /empty host/],
  ["https://[::1/", /unclosed IPv6 bracket/],
] as const;

describe("invalid-URL reports say why (the built binary)", () => {
  // One run of the binary per mode over every case (each report carries its input's index), not
  // one per case and mode: 3 spawns instead of 15, the same reports checked.
  const inputs = CASES.map(([input]) => input);
  let offline: CliRun;
  let json: CliRun;
  let network: CliRun;
  before(async () => {
    [offline, json, network] = await Promise.all([
      runCli(["--offline", ...inputs]),
      runCli(["--offline", "--json", ...inputs]),
      runCli(["--no-cache", ...inputs]),
    ]);
  });
  const lineOf = (text: string, i: number) => text.split("\n")[i] ?? "";
  // The report of input i on stderr (reports are written in input order, one line each).
  const reportOf = (stderr: string, i: number) =>
    stderr.split("\n").find((l) => l.startsWith(`${i}\t`)) ?? `(no report of input ${i} in ${stderr})`;

  for (const [i, [input, reason]] of CASES.entries()) {
    it(input, async () => {
      assert.equal(offline.code, 1);
      assert.equal(offline.stdout, "\n".repeat(CASES.length), "an empty line per failed input");
      assert.match(reportOf(offline.stderr, i), new RegExp(`^${i}\\t.*\\tinvalid-url: `));
      assert.match(reportOf(offline.stderr, i), reason);
      const object = JSON.parse(lineOf(json.stdout, i)) as {
        index: number;
        ok: boolean;
        error: { code: string; message: string };
      };
      assert.equal(object.index, i);
      assert.equal(object.ok, false);
      assert.equal(object.error.code, "invalid-url");
      assert.match(object.error.message, reason);
      // explain takes one URL: the first case through the binary, the others through main().
      const explain = await (i === 0 ? runCli : runMain)(["explain", "--offline", input]);
      assert.equal(explain.code, 1);
      assert.match(explain.stderr, reason);
      assert.equal(network.code, 1);
      assert.match(reportOf(network.stderr, i), reason);
    });
  }
});
