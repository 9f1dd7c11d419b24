import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { fromRoot } from "../helpers/paths.js";

// What importing canonurl/core runs, read from V8's precise coverage of a fresh process
// (NODE_V8_COVERAGE): per function of this package's dist/, how many times it was called. The
// built-in rules are validated when the package is built (scripts/check-data.mjs), so an import
// must not run the validator, its convergence probe or the pattern compiler; each of those costs
// every process CPU before its first normalize.
const VALIDATION = [
  "compileRules",
  "validateRules",
  "convergenceProblems",
  "compilePathPattern",
  "compileDeclaration",
  "readTrackingParams",
];

/** Calls per function name, summed over this package's dist/ files, after running `body`. */
async function callsAfter(body: string): Promise<Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-coverage-"));
  try {
    const child = spawn(process.execPath, ["--input-type=module", "-e", body], {
      cwd: fromRoot(),
      env: { ...process.env, NODE_V8_COVERAGE: dir },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    assert.equal(code, 0, stderr);
    const dist = pathToFileURL(fromRoot("dist")).href;
    const calls = new Map<string, number>();
    for (const file of readdirSync(dir)) {
      const report = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
        result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
      };
      for (const script of report.result) {
        if (!script.url.startsWith(`${dist}/`)) continue;
        for (const fn of script.functions)
          calls.set(fn.functionName, (calls.get(fn.functionName) ?? 0) + (fn.ranges[0]?.count ?? 0));
      }
    }
    return calls;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("importing canonurl/core does no rule validation", () => {
  it("constructs the built-in rules and runs no validator or compiler", { timeout: 30_000 }, async () => {
    const calls = await callsAfter(`await import("canonurl/core");`);
    for (const name of VALIDATION) {
      // Listed with a count: the function is loaded, so a call would have been seen.
      assert.ok(calls.has(name), `${name} is in the coverage (renamed?)`);
      assert.equal(calls.get(name), 0, `${name} ran at import`);
    }
    const { defaultRules } = await import("../../src/core.js");
    assert.equal(calls.get("DeclaredRule"), defaultRules.length, "each built-in rule is constructed once");
  });

  it("the same probe sees validation when a user compiles rules, and compilation on first use", {
    timeout: 30_000,
  }, async () => {
    const calls = await callsAfter(`
const m = await import("canonurl/core");
m.compileRules([{ name: "shop-v1", domains: ["shop.test"], pathPatterns: [{ match: "/p/{id}", rewrite: "/item/{id}" }] }]);
if (m.normalize("https://youtu.be/dQw4w9WgXcQ") !== "https://www.youtube.com/watch?v=dQw4w9WgXcQ") throw new Error("normalize");
`);
    for (const name of ["compileRules", "validateRules", "convergenceProblems", "compilePathPattern"])
      assert.ok((calls.get(name) ?? 0) > 0, `${name} ran for the user's rules`);
    // The user's rule, the probe's copy of it, and the YouTube rule the normalize reached.
    assert.ok(
      (calls.get("compileDeclaration") ?? 0) >= 2,
      `compileDeclaration: ${calls.get("compileDeclaration")}`,
    );
  });
});
