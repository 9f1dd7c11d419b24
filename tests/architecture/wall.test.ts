import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";

// architecture.md: nothing under the pure rooms imports node:*, resolve/, cache/ or cli/, so the
// pure core runs in browsers and edge workers.
const PURE = ["classify", "url", "rules", "pipeline", "archive", "generated"];
const FORBIDDEN = [
  /^node:/,
  /\/resolve\//,
  /\/cache\//,
  /\/cli\//,
  /^(fs|path|net|tls|dns|http|https|url|os)$/,
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
});
