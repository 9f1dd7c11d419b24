// Importing canonurl must not load the SQLite or Redis clients (better-sqlite3 opens a native
// addon; node-redis pulls in a large module graph): they load when such a cache is created.
// Checked in a fresh process over the built package entry, the file users import.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { fromRoot } from "../helpers/paths.js";
import { HAS_NODE_SQLITE } from "./sqlite-drivers.js";

// Runs in the child: which of the two clients are in the module cache after each step. Both are
// CommonJS packages, so every load of them (require or import) lands in require.cache.
const probe = `
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const loaded = () => {
  const files = Object.keys(require.cache);
  return {
    sqlite: files.some((f) => f.includes("/node_modules/better-sqlite3/")),
    builtin: process.moduleLoadList.includes("NativeModule sqlite"),
    redis: files.some((f) => /\\/node_modules\\/(redis|@redis\\/client)\\//.test(f)),
  };
};
const steps = {};
const canonurl = await import(process.argv[1]);
steps.imported = loaded();
await canonurl.memoryCache().close();
canonurl.normalize("https://example.test/a?utm_source=x");
steps.memory = loaded();
const sqlite = canonurl.sqliteCache(process.argv[2]);
steps.sqlite = loaded();
await sqlite.close();
const redis = canonurl.redisCache("redis://127.0.0.1:9");
steps.redis = loaded();
await redis.close();
process.stdout.write(JSON.stringify(steps));
`;

test("importing canonurl loads neither SQLite nor node-redis; creating each cache loads its own", () => {
  const entry = pathToFileURL(fromRoot("dist", "index.js")).href;
  // A path that is never opened: the factory loads the client, the file opens on first use.
  const out = execFileSync(
    process.execPath,
    ["--input-type=module", "-e", probe, entry, fromRoot("build", "never-opened.sqlite")],
    { cwd: fromRoot(), encoding: "utf8", timeout: 30_000 },
  );
  // Where the running Node has node:sqlite, sqliteCache uses it and never loads better-sqlite3.
  const bs3 = !HAS_NODE_SQLITE;
  assert.deepEqual(JSON.parse(out), {
    imported: { sqlite: false, builtin: false, redis: false },
    memory: { sqlite: false, builtin: false, redis: false },
    sqlite: { sqlite: bs3, builtin: !bs3, redis: false },
    redis: { sqlite: bs3, builtin: !bs3, redis: true },
  });
});
