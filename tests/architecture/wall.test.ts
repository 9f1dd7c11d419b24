import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

// architecture.md: nothing under the pure rooms imports node:*, resolve/, cache/ or cli/, so the
// pure core runs in browsers and edge workers.
const PURE = ["classify", "url", "rules", "pipeline", "archive", "generated"];
// The packages canonurl/core must never reach (api.md: "no node:*, no undici, htmlparser2, tldts
// or yaml in its import graph").
const NODE_PACKAGES = /^(undici|htmlparser2|tldts|yaml)(\/|$)/;
const FORBIDDEN = [
  /^node:/,
  /\/resolve\//,
  /\/cache\//,
  /\/cli\//,
  /\/serve\//,
  /\/fleet\//,
  /\/node\//,
  /^(fs|path|net|tls|dns|http|https|url|os|module|stream|zlib|crypto)$/,
  NODE_PACKAGES,
];

function tsFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(tsFiles(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

// Every module specifier a file names at run time: static imports and re-exports (type-only ones
// are erased by the compiler, so they do not count) and dynamic import() calls.
function runtimeImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  for (const match of code.matchAll(
    /(?:^|[;\s])(import|export)(\s+type\b)?[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']|(?:^|[;\s])import\s*["']([^"']+)["']/g,
  )) {
    if (match[2] !== undefined) continue;
    out.push(match[3] ?? match[4] ?? match[5] ?? "");
  }
  return out;
}

describe("the wall around the pure core", () => {
  it("pure rooms import nothing effectful", () => {
    const violations: string[] = [];
    let checked = 0;
    for (const room of PURE) {
      let files: string[] = [];
      try {
        files = tsFiles(fromRoot("src", room));
      } catch {
        continue;
      }
      for (const file of files) {
        checked++;
        const text = readFileSync(file, "utf8");
        for (const match of text.matchAll(
          /(?:import|export)[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']/g,
        )) {
          const spec = match[1] ?? match[2] ?? "";
          if (FORBIDDEN.some((re) => re.test(spec)))
            violations.push(`${relative(fromRoot(), file)} imports ${spec}`);
        }
      }
    }
    assert.ok(checked > 0, "the guard read no file");
    assert.deepEqual(violations, []);
  });

  it("the import graph of src/core.ts stays inside the pure rooms and errors/", () => {
    // Walks what canonurl/core really loads, from its entry, so a pure room that starts importing a
    // sibling outside the list (or a package) is caught even if no rule above names it.
    const allowedRooms = new Set([...PURE, "errors"]);
    const seen = new Set<string>();
    const packages = new Set<string>();
    const violations: string[] = [];
    const queue = [fromRoot("src", "core.ts")];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const rel = relative(fromRoot("src"), file);
      const room = rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : "(entry)";
      if (room !== "(entry)" && !allowedRooms.has(room)) violations.push(`${rel} is outside the pure rooms`);
      for (const spec of runtimeImports(readFileSync(file, "utf8"))) {
        if (!spec.startsWith(".")) {
          packages.add(spec);
          if (spec.startsWith("node:") || NODE_PACKAGES.test(spec)) violations.push(`${rel} imports ${spec}`);
          continue;
        }
        const target = resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
        if (!existsSync(target)) violations.push(`${rel} imports ${spec}, which has no source`);
        else queue.push(target);
      }
    }
    assert.ok(seen.size > 30, `the walk reached only ${seen.size} files`);
    assert.ok(seen.has(fromRoot("src", "pipeline", "normalize.ts")), "the walk never reached normalize");
    assert.deepEqual(violations, []);
    // Today the core pulls no package at all; a new one must be browser-safe and named here.
    assert.deepEqual([...packages].sort(), []);
  });

  it("the walk itself sees a forbidden import when there is one", () => {
    assert.deepEqual(runtimeImports('import { Parser } from "htmlparser2";\nexport * from "./a.js";'), [
      "htmlparser2",
      "./a.js",
    ]);
    assert.deepEqual(runtimeImports('import type { X } from "undici";\n// import "yaml"\n'), []);
    assert.deepEqual(runtimeImports('const m = await import("./lazy.js");'), ["./lazy.js"]);
  });
});
