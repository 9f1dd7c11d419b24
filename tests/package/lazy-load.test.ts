import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { fromRoot } from "../helpers/paths.js";
import { loadedPackages } from "./loaded-modules.js";

// What `import("canonurl")` costs is what it loads. The resolver's engine (undici, htmlparser2 and
// its dom* helpers, tldts) and yaml load on first use, never at import: a program that only
// normalizes must not pay for them (the issue measured ~0.35 s and 38 MB for it).
const ENGINE = ["htmlparser2", "tldts", "undici"];
// http-cache-semantics computes cache lifetimes inside the engine: it loads with it.
const LAZY = [...ENGINE, "yaml", "http-cache-semantics"];

const present = (loaded: string[] | undefined, names: string[]) =>
  names.filter((n) => (loaded ?? []).includes(n));

describe("importing canonurl loads no resolver engine and no YAML parser", () => {
  it("import('canonurl') then a resolve, then loadRules", { timeout: 30_000 }, async () => {
    const loaded = await loadedPackages(`
const m = await import("canonurl");
checkpoint("import");
if (m.normalize("HTTP://Example.COM/a/?utm_source=x") !== "http://example.com/a") throw new Error("normalize");
const client = m.createClient({ maxHops: 3 });
checkpoint("createClient");
// A scheme the resolver refuses before any DNS or connection: the engine loads, nothing is dialled.
const error = await client.resolve("ftp://blocked.test/").then(() => null, (e) => e);
if (error?.code !== "unsupported-scheme") throw new Error("resolve: " + error);
await client.close();
checkpoint("resolve");
m.loadRules("- { name: a-v1, domains: [a.example] }");
checkpoint("loadRules");
`);
    assert.deepEqual(present(loaded.import, LAZY), [], `loaded at import: ${loaded.import}`);
    assert.deepEqual(present(loaded.createClient, LAZY), [], "createClient alone loads no engine");
    assert.deepEqual(present(loaded.resolve, ENGINE), ENGINE, `after a resolve: ${loaded.resolve}`);
    assert.deepEqual(present(loaded.resolve, ["yaml"]), []);
    assert.deepEqual(present(loaded.loadRules, ["yaml"]), ["yaml"]);
  });

  it("import('canonurl/core') loads no package at all", { timeout: 30_000 }, async () => {
    const loaded = await loadedPackages(`
const m = await import("canonurl/core");
if (m.classify("https:/evil.test/x").class !== "hidden-host") throw new Error("classify");
checkpoint("import");
`);
    assert.deepEqual(loaded.import, []);
  });

  it("a one-URL `canonurl --offline` run loads neither", { timeout: 30_000 }, async () => {
    // The CLI's network mode imports the lazy client, so offline runs never pay for the engine
    // (importing it eagerly cost the one-URL run ~0.25 s of CPU).
    const bin = pathToFileURL(fromRoot("dist/cli/bin.js")).href;
    const loaded = await loadedPackages(`
process.argv = [process.execPath, "canonurl", "--offline", "https://youtu.be/dQw4w9WgXcQ?si=x"];
await import(${JSON.stringify(bin)});
// bin.js sets the exit code when main() settles.
while (process.exitCode === undefined) await new Promise((r) => setImmediate(r));
if (process.exitCode !== 0) throw new Error("exit " + process.exitCode);
checkpoint("offline");
`);
    assert.deepEqual(present(loaded.offline, LAZY), [], `loaded: ${loaded.offline}`);
  });

  it("createClient validates at construction, before any engine loads", { timeout: 30_000 }, async () => {
    const loaded = await loadedPackages(`
const m = await import("canonurl");
let message = "";
try { m.createClient({ maxHopz: 3 }); } catch (e) { message = e instanceof TypeError ? e.message : "not a TypeError"; }
if (!/maxHopz/.test(message)) throw new Error("expected a TypeError naming maxHopz, got " + message);
const client = m.createClient();
try { client.resolveMany([], { concurrency: 0 }); message = ""; } catch (e) { message = e instanceof TypeError ? e.message : ""; }
if (!/concurrency/.test(message)) throw new Error("expected a TypeError naming concurrency");
const transport = m.createPinnedTransport();
if (transport.socketsOpened !== 0) throw new Error("socketsOpened");
await transport.close();
await client.close();
checkpoint("after");
`);
    assert.deepEqual(present(loaded.after, LAZY), []);
  });
});
