import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { wasmStallsExit } from "../../src/cli/io/wasm-exit-stall.js";
import { fromRoot } from "../helpers/paths.js";

// The executable keeps WebAssembly on V8's baseline compiler on Node 20 only (see
// src/cli/io/wasm-exit-stall.ts for the measured stall); never as a side effect of the library.
describe("the Node 20 WebAssembly exit stall", () => {
  it("is avoided on Node 20 and left alone on 22, 24 and 26", () => {
    assert.equal(wasmStallsExit("20.18.1"), true);
    assert.equal(wasmStallsExit("20.20.2"), true);
    for (const v of ["22.23.5", "24.22.3", "26.12.1", "2.0.0", "200.1.0"])
      assert.equal(wasmStallsExit(v), false, v);
  });

  it("importing the library loads no node:v8, so it sets no V8 flag of its host", () => {
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const loaded = new Set(process.moduleLoadList);
         await import(${JSON.stringify(fromRoot("dist/index.js"))});
         const v8 = process.moduleLoadList.filter((m) => !loaded.has(m) && m === "NativeModule v8");
         process.stdout.write(String(v8.length));`,
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "0");
  });
});
