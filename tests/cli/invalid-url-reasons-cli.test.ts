import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";

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
  for (const [input, reason] of CASES) {
    it(input, async () => {
      const offline = await runCli(["--offline", input]);
      assert.equal(offline.code, 1);
      assert.equal(offline.stdout, "\n");
      assert.match(offline.stderr, /^0\t.*\tinvalid-url: /);
      assert.match(offline.stderr, reason);
      const json = await runCli(["--offline", "--json", input]);
      const object = JSON.parse(json.stdout) as { ok: boolean; error: { code: string; message: string } };
      assert.equal(object.ok, false);
      assert.equal(object.error.code, "invalid-url");
      assert.match(object.error.message, reason);
      const explain = await runCli(["explain", "--offline", input]);
      assert.equal(explain.code, 1);
      assert.match(explain.stderr, reason);
      const network = await runCli(["--no-cache", input]);
      assert.equal(network.code, 1);
      assert.match(network.stderr, reason);
    });
  }
});
