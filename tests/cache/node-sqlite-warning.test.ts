// On Node 22 node:sqlite prints "ExperimentalWarning: SQLite is an experimental feature…" when it
// first loads. canonurl chose the library, so that line must not reach a user's stderr, and no other
// warning may be lost with it. Checked in child processes over the built package entry.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { fromRoot } from "../helpers/paths.js";
import { HAS_NODE_SQLITE } from "./sqlite-drivers.js";

const major = Number(process.versions.node.split(".")[0]);

function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("node:sqlite's ExperimentalWarning is kept from stderr; every other warning gets through", () => {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-sqlite-warning-"));
  try {
    const entry = pathToFileURL(fromRoot("dist", "index.js")).href;
    const script = `
const { sqliteCache } = await import(process.argv[1]);
process.emitWarning("before the cache", "ExperimentalWarning");
const cache = sqliteCache(process.argv[2]);
await cache.set("k", { outcome: { ok: false, error: { code: "timeout", message: "m" } }, storedAt: Date.now(), freshUntil: Date.now() + 60000 });
const hit = (await cache.get("k")) !== undefined;
await cache.close();
process.emitWarning("after the cache", "DeprecationWarning");
// The same text from someone else, after the load: not ours to drop.
process.emitWarning("SQLite is an experimental feature (a user's own)", "ExperimentalWarning");
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify({ hit, builtin: process.moduleLoadList.includes("NativeModule sqlite") }));
`;
    const r = node(["--input-type=module", "-e", script, entry, join(dir, "c.sqlite")]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { hit: true, builtin: HAS_NODE_SQLITE });
    const warnings = r.stderr.split("\n").filter((l) => /Warning: /.test(l));
    assert.deepEqual(
      warnings.map((l) => l.replace(/^\(node:\d+\) /, "")),
      [
        "ExperimentalWarning: before the cache",
        "DeprecationWarning: after the cache",
        "ExperimentalWarning: SQLite is an experimental feature (a user's own)",
      ],
      r.stderr,
    );
    if (major === 22) {
      // The test can fail: on this Node, loading node:sqlite unfiltered does print the warning.
      const plain = node(["-e", `require("node:sqlite")`]);
      assert.match(plain.stderr, /ExperimentalWarning: SQLite is an experimental feature/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
