import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createFixedResolver } from "../../src/cli/flags/fixed-resolver.js";
import { CACHE_KEY_DECISIONS, createCacheKeyer } from "../../src/resolve/cache-key.js";
import { CLIENT_OPTION_KEYS, resolveClientOptions } from "../../src/resolve/client-options.js";
import type { ClientOptions } from "../../src/resolve/types.js";

// Issue 23, item 5: the resolution key ignored --resolve HOST:ADDRESS, so a run pinned to a staging
// address served its answers to later production runs. Every client option now has a decision.

const noDns = async (host: string): Promise<string[]> => {
  throw new Error(`no test address for ${host}`);
};
const keyOf = (options: ClientOptions, input = "http://site.test/x") =>
  createCacheKeyer(resolveClientOptions(options)).keyOf(input);

describe("the cache key's decision table (issue 23)", () => {
  it("has exactly one row per option the client accepts: a new option needs a decision", () => {
    assert.deepEqual(Object.keys(CACHE_KEY_DECISIONS).sort(), [...CLIENT_OPTION_KEYS].sort());
    for (const [name, decision] of Object.entries(CACHE_KEY_DECISIONS)) {
      assert.ok(decision === "key" || /^not: \S/.test(decision), `${name}: a decision with its reason`);
    }
  });

  it("a fixed DNS answer is part of the key: another address, another key; the same table, the same key", () => {
    const staging = createFixedResolver(new Map([["site.test", ["127.0.0.2"]]]), noDns);
    const production = createFixedResolver(new Map([["site.test", ["127.0.0.1"]]]), noDns);
    const again = createFixedResolver(new Map([["SITE.test.", ["127.0.0.2"]]]), noDns);
    assert.notEqual(keyOf({ resolver: staging }), keyOf({ resolver: production }));
    assert.equal(keyOf({ resolver: staging }), keyOf({ resolver: again }));
    // The CLI's --resolve falls back to the system resolver for other names.
    const cli = createFixedResolver(new Map([["site.test", ["127.0.0.1"]]]));
    assert.notEqual(keyOf({ resolver: cli }), keyOf({}));
    assert.notEqual(keyOf({ resolver: cli }), keyOf({ resolver: production }));
  });

  it("rows marked key change the key; rows marked not leave it alone", () => {
    const base = keyOf({});
    const keyed: ClientOptions[] = [
      { stripUserinfo: false },
      { maxHops: 3 },
      { allowedPorts: [8080] },
      { headers: { "accept-language": "de" } },
      { canonicalLinks: "off" },
      { resolver: async () => ["127.0.0.1"] },
      { forceHttps: true },
      { stripWWW: true },
      { removeDirectoryIndex: true },
      { removeSessionIds: false },
      { trackingLayers: [{ name: "pk", inspect: () => ({ remove: (n: string) => n.startsWith("pk_") }) }] },
    ];
    for (const options of keyed) assert.notEqual(keyOf(options), base, JSON.stringify(Object.keys(options)));
    const unkeyed: ClientOptions[] = [{ totalTimeoutMs: 5 }, { hostConcurrency: 1 }, { maxRetryAfterMs: 0 }];
    for (const options of unkeyed) assert.equal(keyOf(options), base, JSON.stringify(options));
  });
});
