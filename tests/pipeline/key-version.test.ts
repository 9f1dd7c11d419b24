import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import { keyVersion as coreKeyVersion } from "../../src/core.js";
import { keyVersion } from "../../src/index.js";
import { fromRoot } from "../helpers/paths.js";

// Issue 22, item 8: keys carry a version. When the built-in data changes, so does keyVersion (it
// hashes the data), and this test fails until the new value is recorded below and CHANGELOG.md has
// a line for it: a changed key never ships unannounced.
const RECORDED = "4.a3bde65711ec";

interface KeyVersionModule {
  KEY_DATA_FILES: string[];
  PIPELINE_REVISION: number;
  computeKeyVersion(parsed: Record<string, unknown>): string;
}

async function recompute(): Promise<{ module: KeyVersionModule; version: string }> {
  const module = (await import(
    pathToFileURL(fromRoot("scripts", "key-version.mjs")).href
  )) as KeyVersionModule;
  const parsed = Object.fromEntries(
    module.KEY_DATA_FILES.map((f) => [f, parse(readFileSync(fromRoot("data", f), "utf8")) as unknown]),
  );
  return { module, version: module.computeKeyVersion(parsed) };
}

describe("keyVersion", () => {
  it("is what the data in data/ gives, in both entries", async () => {
    const { version } = await recompute();
    assert.equal(keyVersion, version, "the build is stale: run npm run build");
    assert.equal(coreKeyVersion, keyVersion);
  });

  it("is the recorded one: a data change must be recorded here and in CHANGELOG.md", () => {
    assert.equal(
      keyVersion,
      RECORDED,
      `default keys changed: record "${keyVersion}" in this test and add a CHANGELOG.md line naming it`,
    );
    assert.ok(readFileSync(fromRoot("CHANGELOG.md"), "utf8").includes(`keyVersion \`${keyVersion}\``));
  });

  it("changes when any rule or tracking entry changes, not when a comment does", async () => {
    const { module } = await recompute();
    const read = (f: string) => parse(readFileSync(fromRoot("data", f), "utf8")) as unknown;
    const base = Object.fromEntries(module.KEY_DATA_FILES.map((f) => [f, read(f)]));
    const v0 = module.computeKeyVersion(base);
    const rules = structuredClone(base["domain-rules.yaml"]) as { stripParams?: string[] }[];
    (rules[5] as { stripParams?: string[] }).stripParams = ["x"];
    assert.notEqual(module.computeKeyVersion({ ...base, "domain-rules.yaml": rules }), v0);
    const tiers = structuredClone(base["tracking-params.yaml"]) as { everywhere: unknown[] };
    tiers.everywhere.pop();
    assert.notEqual(module.computeKeyVersion({ ...base, "tracking-params.yaml": tiers }), v0);
    // The same data spelt differently (key order) is the same version.
    const reordered = Object.fromEntries(Object.entries(base).reverse());
    assert.equal(module.computeKeyVersion(reordered), v0);
    assert.ok(v0.startsWith(`${module.PIPELINE_REVISION}.`));
  });
});
