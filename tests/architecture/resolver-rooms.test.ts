import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

// architecture.md: the resolver is split into guard/, http/ and discover/ with the orchestration at
// its root, and the Cache contract lives with the resolver that calls it, so cache/ imports resolve/
// and never the other way round.

function tsFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(tsFiles(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

// Every specifier a file names, type-only imports included: a type import is still a dependency
// between rooms.
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(
    /(?:^|[;\s])(?:import|export)[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']/g,
  )) {
    out.push(match[1] ?? match[2] ?? "");
  }
  return out;
}

const SUB_ROOMS: Record<string, string[]> = {
  guard: ["address-policy", "ip-tables", "ip-address", "destination", "default-resolver"],
  http: ["pinned-transport", "pinned-exchange", "transport", "read-head", "media-type", "to-canon-error"],
  discover: ["link-header", "html-canonical", "location", "same-site"],
};

describe("the resolver's rooms", () => {
  it("guard/, http/ and discover/ hold their concerns, none of them left at the root", () => {
    const root = readdirSync(fromRoot("src", "resolve"));
    for (const [room, names] of Object.entries(SUB_ROOMS)) {
      const files = readdirSync(fromRoot("src", "resolve", room));
      for (const name of names) {
        assert.ok(files.includes(`${name}.ts`), `src/resolve/${room}/${name}.ts is missing`);
        assert.ok(!root.includes(`${name}.ts`), `src/resolve/${name}.ts belongs in ${room}/`);
      }
    }
  });

  it("nothing under src/resolve imports src/cache (the Cache contract lives in resolve/)", () => {
    const violations: string[] = [];
    const files = tsFiles(fromRoot("src", "resolve"));
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, "utf8"))) {
        if (/(^|\/)cache\//.test(spec)) violations.push(`${relative(fromRoot(), file)} imports ${spec}`);
      }
    }
    assert.ok(files.length > 20, `read only ${files.length} files`);
    assert.deepEqual(violations, []);
  });

  it("the check sees a cross-room import when there is one", () => {
    assert.deepEqual(specifiers('import type { Cache } from "../cache/cache.js";'), ["../cache/cache.js"]);
    assert.deepEqual(specifiers('const m = await import("../../cache/memory-cache.js");'), [
      "../../cache/memory-cache.js",
    ]);
  });
});
