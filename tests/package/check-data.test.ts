import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import { domainRules, trackingParamNames, trackingParams } from "../../src/generated/data.js";
import { fromRoot } from "../helpers/paths.js";

// The library trusts the built-in rules at import (no validation), so the build's check is what
// stands between a bad data/domain-rules.yaml and a published package. It runs over a compiled
// tree: here one whose data module is ours and whose validator is the real one.
function check(
  rules: unknown,
  tracking: unknown = trackingParams,
  names: unknown = trackingParamNames,
): { status: number | null; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-check-data-"));
  try {
    mkdirSync(join(dir, "generated"));
    mkdirSync(join(dir, "rules"));
    mkdirSync(join(dir, "pipeline"));
    writeFileSync(
      join(dir, "generated", "data.js"),
      [rules, tracking, names]
        .map(
          (v, i) =>
            `export const ${["domainRules", "trackingParams", "trackingParamNames"][i]} = ${JSON.stringify(v)};\n`,
        )
        .join(""),
    );
    for (const file of [
      "rules/compile-rules.js",
      "rules/validate-rules.js",
      "pipeline/default-tracking-params.js",
    ])
      writeFileSync(
        join(dir, file),
        `export * from ${JSON.stringify(pathToFileURL(fromRoot("dist", file)).href)};\n`,
      );
    const r = spawnSync(process.execPath, [fromRoot("scripts", "check-data.mjs"), dir], { encoding: "utf8" });
    return { status: r.status, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const shipped = domainRules as Record<string, unknown>[];

describe("scripts/build-data.mjs (the generated data module)", () => {
  it("holds every data file as parsed, the compacted host lists included", () => {
    // Google's search domains are generated as bare names expanded to (name, www.name) at import.
    assert.deepEqual(domainRules, parse(readFileSync(fromRoot("data", "domain-rules.yaml"), "utf8")));
    assert.deepEqual(trackingParams, parse(readFileSync(fromRoot("data", "tracking-params.yaml"), "utf8")));
    const google = shipped.find((r) => r.name === "google-url-v2")?.domains as string[];
    assert.ok(google.length > 300 && google.includes("www.google.co.uk") && google.includes("google.cat"));
    assert.match(readFileSync(fromRoot("src", "generated", "data.ts"), "utf8"), /withWww\("google\.", "com /);
  });
});

describe("scripts/check-data.mjs (the build's validation of the built-in rules)", () => {
  it("passes the shipped data", () => {
    assert.deepEqual(check(shipped), { status: 0, stderr: "" });
  });

  it("fails the build on a problem the validator finds, naming it", () => {
    const bad = shipped.map((r, i) => (i === 4 ? { ...r, domains: ["YouTube.com"] } : r));
    const r = check(bad);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /\[4\]\.domains\[0\]: "YouTube\.com" must be lowercase/);
  });

  it("fails on a rule that never settles (the convergence probe runs)", () => {
    const loop = {
      name: "loop-v1",
      domains: ["loop.test"],
      unwrap: [{ path: "/{t*}", target: "https://loop.test/{t}/{t}" }],
    };
    const r = check([...shipped, loop]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`\\[${shipped.length}\\]\\.unwrap\\[0\\]: never settles`));
  });

  it("fails on a rule the validator accepts but rewrites: the trusted copy would differ", () => {
    // keepFragment as a bare string validates, as { pattern }; the library uses the data as written.
    const bad = shipped.map((r) => (r.name === "github-v4" ? { ...r, keepFragment: "L\\d+" } : r));
    const r = check(bad);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /\(github-v4\) is not in the validator's form/);
  });

  it("fails on a tracking parameter without a source, and on names that are not the file's", () => {
    const tiers = trackingParams as { everywhere: Record<string, unknown>[]; hostScoped: unknown[] };
    const unsourced = {
      ...tiers,
      everywhere: tiers.everywhere.map((e, i) => (i === 1 ? { ...e, source: "" } : e)),
    };
    const r = check(shipped, unsourced);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /everywhere\[1\] \(gclid\) needs a source/);
    const names = trackingParamNames as unknown as { everywhere: string[]; hostScoped: unknown[] };
    const drifted = check(shipped, trackingParams, { ...names, everywhere: names.everywhere.slice(1) });
    assert.equal(drifted.status, 1);
    assert.match(drifted.stderr, /trackingParamNames is not what readTrackingParams reads/);
  });
});
