import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp-dir.js";

// `npm test` skips the build when scripts/build-stamp.mjs says dist/ is fresh, so a wrong "fresh"
// would run the tests against a stale build. The script works on the tree it sits in (its parent
// directory): each case copies it into a scratch tree of the same shape and runs it there, never
// on this checkout.
function scratchTree(): { root: string; stamp: (command: string) => number | null } {
  const root = tempDir("canonurl-build-stamp-");
  for (const dir of ["src/cli", "src/generated", "data", "scripts", "dist/cli", "node_modules"])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "src", "cli", "bin.ts"), "export const a = 1;\n");
  writeFileSync(join(root, "src", "generated", "data.ts"), "export const d = [];\n");
  writeFileSync(join(root, "data", "rules.yaml"), "rules: []\n");
  for (const file of [
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "node_modules/.package-lock.json",
  ])
    writeFileSync(join(root, file), "{}\n");
  copyFileSync(fromRoot("scripts", "build-stamp.mjs"), join(root, "scripts", "build-stamp.mjs"));
  const stamp = (command: string): number | null =>
    spawnSync(process.execPath, [join(root, "scripts", "build-stamp.mjs"), command], { encoding: "utf8" })
      .status;
  return { root, stamp };
}

// What a build writes, between `begin` and `end`.
function writeDist(root: string): void {
  writeFileSync(join(root, "dist", "cli", "bin.js"), "export const a = 1;\n");
  chmodSync(join(root, "dist", "cli", "bin.js"), 0o755);
}

function built(): { root: string; stamp: (command: string) => number | null } {
  const tree = scratchTree();
  assert.equal(tree.stamp("begin"), 0);
  writeDist(tree.root);
  assert.equal(tree.stamp("end"), 0);
  return tree;
}

describe("scripts/build-stamp.mjs: `npm test` skips the build only when nothing changed", () => {
  it("fresh after a complete build; not fresh before any build", () => {
    const never = scratchTree();
    writeDist(never.root);
    assert.equal(never.stamp("fresh"), 1, "no stamp yet");
    const { stamp } = built();
    assert.equal(stamp("fresh"), 0);
    assert.equal(stamp("fresh"), 0, "checking changes nothing");
  });

  it("an input changed, added or removed: not fresh (and fresh again once it is back)", () => {
    const { root, stamp } = built();
    const source = join(root, "src", "cli", "bin.ts");
    appendFileSync(source, "// edited\n");
    assert.equal(stamp("fresh"), 1, "an edited source");
    writeFileSync(source, "export const a = 1;\n");
    assert.equal(stamp("fresh"), 0, "the same bytes again");
    for (const added of ["data/more.yaml", "scripts/new-step.mjs", "src/cli/new.ts"]) {
      writeFileSync(join(root, added), "x\n");
      assert.equal(stamp("fresh"), 1, `added ${added}`);
      rmSync(join(root, added));
      assert.equal(stamp("fresh"), 0);
    }
    for (const file of [
      "package.json",
      "package-lock.json",
      "node_modules/.package-lock.json",
      "tsconfig.json",
    ]) {
      appendFileSync(join(root, file), " ");
      assert.equal(stamp("fresh"), 1, `changed ${file}`);
      writeFileSync(join(root, file), "{}\n");
    }
    rmSync(join(root, "data", "rules.yaml"));
    assert.equal(stamp("fresh"), 1, "a removed data file");
  });

  it("an output changed, removed or no longer executable: not fresh", () => {
    const { root, stamp } = built();
    const bin = join(root, "dist", "cli", "bin.js");
    appendFileSync(bin, "// edited\n");
    assert.equal(stamp("fresh"), 1, "an edited output");
    writeDist(root);
    assert.equal(stamp("fresh"), 0);
    chmodSync(bin, 0o644);
    assert.equal(stamp("fresh"), 1, "bin.js lost its x bit");
    chmodSync(bin, 0o755);
    writeFileSync(join(root, "dist", "extra.js"), "\n");
    assert.equal(stamp("fresh"), 1, "a file the build did not write");
    rmSync(join(root, "dist", "extra.js"));
    appendFileSync(join(root, "src", "generated", "data.ts"), "// edited\n");
    assert.equal(stamp("fresh"), 1, "src/generated is what the tests compile against");
  });

  it("a build that failed, or whose inputs changed while it ran, leaves no stamp", () => {
    const { root, stamp } = built();
    // A failed build: begin ran, end never did.
    assert.equal(stamp("begin"), 0);
    writeDist(root);
    assert.equal(stamp("fresh"), 1, "begin forgets the last stamp");
    // An input edited mid-build.
    assert.equal(stamp("begin"), 0);
    appendFileSync(join(root, "src", "cli", "bin.ts"), "// edited mid-build\n");
    writeDist(root);
    assert.equal(stamp("end"), 0);
    assert.equal(stamp("fresh"), 1, "no stamp from a build whose inputs moved under it");
    // A corrupt stamp is not fresh either.
    assert.equal(stamp("begin"), 0);
    assert.equal(stamp("end"), 0);
    assert.equal(stamp("fresh"), 0);
    writeFileSync(join(root, "build", ".build-stamp.json"), "{not json");
    assert.equal(stamp("fresh"), 1, "an unreadable stamp");
  });
});
