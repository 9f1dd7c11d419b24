import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

// architecture.md (issue 23): the command line is split by concern — commands/ (one file per
// subcommand and the run modes they choose between), flags/ (turning flags into options), io/
// (reading input, writing output, reporting failures) and workers/ (the offline worker threads) —
// with only the entry (bin.ts) and the dispatcher (main.ts) left at its root.
const ROOMS: Record<string, string[]> = {
  commands: [
    "canonicalize-command",
    "classify-command",
    "explain-command",
    "fleet-command",
    "serve-command",
    "network-mode",
    "usage",
    "version",
  ],
  flags: ["cache-flags", "format-flag", "network-flags", "normalize-flags", "rules-flag", "fixed-resolver"],
  io: [
    "io",
    "line-splitter",
    "read-lines",
    "stdin-chunks",
    "stdin-hint",
    "input-total",
    "output-file",
    "outcome-output",
    "progress",
    "report-failure",
  ],
  workers: ["offline-batch", "offline-worker", "offline-workers", "worker-prestart"],
};
const ROOT_FILES = ["bin.ts", "main.ts"];

describe("the command line's rooms", () => {
  it("commands/, flags/, io/ and workers/ hold their concerns, none of them left at the root", () => {
    for (const [room, names] of Object.entries(ROOMS)) {
      const files = readdirSync(fromRoot("src", "cli", room));
      for (const name of names)
        assert.ok(files.includes(`${name}.ts`), `src/cli/${room}/${name}.ts is missing`);
    }
  });

  it("the root holds only the entry and the dispatcher, and no room is unnamed", () => {
    const root = readdirSync(fromRoot("src", "cli"));
    const files = root.filter((name) => !statSync(fromRoot("src", "cli", name)).isDirectory());
    const dirs = root.filter((name) => statSync(fromRoot("src", "cli", name)).isDirectory());
    assert.deepEqual(files.sort(), [...ROOT_FILES].sort(), "a new file at src/cli/ belongs in a room");
    assert.deepEqual(
      dirs.sort(),
      Object.keys(ROOMS).sort(),
      "a new room under src/cli/ needs a decision here",
    );
  });
});
