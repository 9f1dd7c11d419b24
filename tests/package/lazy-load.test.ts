import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { fromRoot } from "../helpers/paths.js";
import { loadedPackages } from "./loaded-modules.js";

// What `import("canonurl")` costs is what it loads. The resolver's engine (undici) and yaml load
// on first use, never at import: a program that only normalizes must not pay for them (the issue
// measured ~0.35 s and 38 MB for it). htmlparser2 and its dom* helpers load later still, with the
// first HTML head the resolver reads, and tldts with the first same-site check of a canonical
// declared for another host (canonicalLinks: "same-site"; the default, "any", never checks): a
// network-mode CLI start paid ~60 and ~110 ms of CPU for them, most runs needing neither.
const ENGINE = ["undici"];
const HTML = ["htmlparser2"];
const PSL = ["tldts"];
// http-cache-semantics computes cache lifetimes inside the engine: it loads with it.
const LAZY = [...ENGINE, ...HTML, ...PSL, "yaml", "http-cache-semantics"];

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
    assert.deepEqual(present(loaded.resolve, [...HTML, ...PSL]), [], "no HTML read, no canonical: neither");
    assert.deepEqual(present(loaded.resolve, ["yaml"]), []);
    assert.deepEqual(present(loaded.loadRules, ["yaml"]), ["yaml"]);
  });

  it("import('canonurl') and a normalize load no CommonJS package; ipaddr.js waits for an IPv6 text", {
    timeout: 30_000,
  }, async () => {
    // ipaddr.js (CommonJS) came in at import through the address policy's tables, and on Node 20
    // the first CommonJS package of a process costs ~70 ms of CPU: about half of what
    // `import("canonurl")` cost over a bare node. require.cache holds every CommonJS module loaded
    // (an ES module's import of one included), so it must hold no package until the resolver's.
    const loaded = await loadedPackages(`
const commonJs = () => Object.keys(require.cache).filter((p) => p.includes("/node_modules/"));
const m = await import("canonurl");
if (m.normalize("HTTP://Example.COM/a/?utm_source=x") !== "http://example.com/a") throw new Error("normalize");
if (commonJs().length !== 0) throw new Error("CommonJS loaded by import + normalize: " + commonJs());
checkpoint("normalize");
// IPv4 blocks are parsed and printed without ipaddr.js (the hand scanner of parseIp).
const dials = [];
const transport = {
  async request(request) {
    dials.push(request.addresses.join(" "));
    return { status: 200, headers: { "content-type": "text/plain" }, body: (async function* () {})(), async dispose() {} };
  },
};
const answers = { "v4.test": ["127.0.0.1"], "loopback.test": ["::1"], "public.test": ["2001:4860:4860::8888"] };
const client = m.createClient({
  allowedNetworks: ["127.0.0.1/32", "10.0.0.0/8"],
  resolver: async (host) => answers[host] ?? [],
  transport,
});
checkpoint("ipv4-networks");
// A resolve whose answer is in allowedNetworks: the built-in tables are not consulted.
if ((await client.canonicalize("http://v4.test/a")) !== "http://v4.test/a") throw new Error("v4.test");
checkpoint("ipv4-resolve");
// An IPv6 answer: the tables compile (their IPv6 blocks need ipaddr.js) and refuse ::1 ...
const error = await client.resolve("http://loopback.test/").then(() => null, (e) => e);
if (error?.code !== "blocked-address") throw new Error("loopback.test: " + error);
checkpoint("ipv6-resolve");
// ... and let a global unicast address through to the transport (nothing is dialled: it is a stub).
if ((await client.canonicalize("http://public.test/b")) !== "http://public.test/b") throw new Error("public.test");
await client.close();
if (dials.join(",") !== "127.0.0.1,2001:4860:4860::8888") throw new Error("dials: " + dials);
checkpoint("after");
`);
    assert.deepEqual(present(loaded.normalize, ["ipaddr.js"]), [], `loaded: ${loaded.normalize}`);
    assert.deepEqual(present(loaded["ipv4-networks"], ["ipaddr.js"]), [], "IPv4 allowedNetworks");
    assert.deepEqual(present(loaded["ipv4-resolve"], ["ipaddr.js"]), [], "a resolve to an allowed IPv4");
    assert.deepEqual(present(loaded["ipv4-resolve"], ENGINE), ENGINE, "the resolve ran the engine");
    assert.deepEqual(present(loaded["ipv6-resolve"], ["ipaddr.js"]), ["ipaddr.js"], "loaded on first use");
  });

  it("a resolve loads undici's Client and connector, not its index (fetch, WebSocket, mocks); htmlparser2 and tldts wait for their first use", {
    timeout: 30_000,
  }, async () => {
    // undici's index is 110 modules, ~170 ms of CPU on Node 20, paid by every network-mode run and
    // fleet worker; Client and its connector are 19 (src/resolve/http/pinned-transport.ts). A real
    // request through the default transport to a server of the probe's own on 127.0.0.1.
    const loaded = await loadedPackages(`
const { createServer } = await import("node:http");
const server = createServer((q, r) => {
  if (q.url === "/link") {
    // A canonical declared for another host: the same-site check needs the Public Suffix List.
    r.writeHead(200, { "content-type": "text/plain", link: '<http://other.test:' + port + '/c>; rel="canonical"' });
    r.end("ok");
  } else if (q.url === "/html") {
    r.writeHead(200, { "content-type": "text/html" });
    r.end('<html><head><link rel="canonical" href="/c"></head><body></body></html>');
  } else {
    r.writeHead(200, { "content-type": "text/plain" });
    r.end("ok");
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const port = server.address().port;
const m = await import("canonurl");
const client = m.createClient({ resolver: async () => ["127.0.0.1"], allowedNetworks: ["127.0.0.1/32"], allowedPorts: [port] });
const result = await client.resolve("http://site.test:" + port + "/a");
if (result.status !== 200) throw new Error("status " + result.status);
checkpoint("plain");
const html = await client.resolve("http://site.test:" + port + "/html");
await client.close();
if (html.url !== "http://site.test:" + port + "/c") throw new Error("html canonical " + html.url);
checkpoint("html");
const client2 = m.createClient({ canonicalLinks: "same-site", resolver: async () => ["127.0.0.1"], allowedNetworks: ["127.0.0.1/32"], allowedPorts: [port] });
const link = await client2.resolve("http://site.test:" + port + "/link");
await client2.close();
server.close();
// other.test is another site: the canonical is dropped, the link itself stands.
if (link.url !== "http://site.test:" + port + "/link") throw new Error("link canonical " + link.url);
const files = Object.keys(require.cache).filter((p) => p.includes("/node_modules/undici/")).map((p) => p.split("/node_modules/undici/").pop());
if (!files.includes("lib/dispatcher/client.js") || !files.includes("lib/core/connect.js")) throw new Error("undici files: " + files);
if (files.includes("index.js") || files.some((f) => f.startsWith("lib/web/"))) throw new Error("undici's index loaded: " + files.length + " files");
checkpoint("resolve");
`);
    assert.deepEqual(present(loaded.resolve, ["undici"]), ["undici"]);
    assert.deepEqual(present(loaded.plain, HTML), [], "a text/plain answer loads no HTML parser");
    assert.deepEqual(present(loaded.html, HTML), HTML, "an HTML head loads it");
    assert.deepEqual(present(loaded.html, PSL), [], "a same-host canonical needs no suffix list");
    assert.deepEqual(present(loaded.resolve, PSL), PSL, "a canonical for another host loads it");
  });

  it("import('canonurl/core') loads no package at all", { timeout: 30_000 }, async () => {
    const loaded = await loadedPackages(`
const m = await import("canonurl/core");
if (m.classify("https:/evil.test/x").class !== "hidden-host") throw new Error("classify");
checkpoint("import");
`);
    assert.deepEqual(loaded.import, []);
  });

  it("import('canonurl/core') loads two files: its entry and the core's modules in one", {
    timeout: 30_000,
  }, async () => {
    // scripts/bundle-core.mjs folds the ~80 compiled modules of the core into dist/core-modules.js
    // (each ES module costs Node 20 ~0.4 ms of CPU to load); a new file in this list is a module
    // the core loads on its own, outside that bundle.
    const loaded = await loadedPackages(`
const m = await import("canonurl/core");
checkpoint("import");
if (m.normalize("https://youtu.be/dQw4w9WgXcQ?si=x") !== "https://www.youtube.com/watch?v=dQw4w9WgXcQ") throw new Error("normalize");
checkpoint("normalize");
`);
    assert.deepEqual(loaded["files:import"], ["dist/core-modules.js", "dist/core.js"]);
    assert.deepEqual(loaded["files:normalize"], loaded["files:import"], "a normalize loads nothing more");
  });

  it("canonurl and canonurl/core share one copy of every class and table", { timeout: 30_000 }, async () => {
    // The Node side imports the core's files one by one (dist/errors/url-error.js, …); each is a
    // facade over dist/core-modules.js, so an error the resolver throws is an instance of the class
    // canonurl/core exports, and the built-in rules are the same objects through either entry.
    const loaded = await loadedPackages(`
const node = await import("canonurl");
const core = await import("canonurl/core");
const rules = await import(${JSON.stringify(pathToFileURL(fromRoot("dist/rules/index.js")).href)});
for (const name of Object.keys(core)) if (node[name] !== core[name]) throw new Error("canonurl." + name + " is not canonurl/core's");
if (rules.defaultRules !== core.defaultRules || !(core.defaultRules[0] instanceof rules.DeclaredRule)) throw new Error("rules room");
const client = node.createClient();
const error = await client.resolve("ftp://blocked.test/").then(() => null, (e) => e);
await client.close();
if (!(error instanceof core.CanonError) || error.code !== "unsupported-scheme") throw new Error("resolver error: " + error);
let thrown = null;
try { node.loadRules("- { name: a b, domains: [a.example] }"); } catch (e) { thrown = e; }
if (!(thrown instanceof core.RuleError)) throw new Error("loadRules error: " + thrown);
checkpoint("after");
`);
    // The resolver's modules come in on their own; of the core's (the import graph of src/core.ts,
    // as esbuild walks it), only the facades over the one bundle.
    const { metafile } = await build({
      entryPoints: [fromRoot("src", "core.ts")],
      absWorkingDir: fromRoot(),
      bundle: true,
      write: false,
      metafile: true,
      format: "esm",
      logLevel: "silent",
    });
    const coreFiles = new Set(
      Object.keys(metafile.inputs).map((p) =>
        relative(fromRoot(), fromRoot(p))
          .replace(/^src\//, "dist/")
          .replace(/\.ts$/, ".js"),
      ),
    );
    const loadedCore = loaded["files:after"]?.filter((f) => coreFiles.has(f)) ?? [];
    assert.ok(loadedCore.length > 3, `the Node side imports core files one by one: ${loaded["files:after"]}`);
    for (const file of loadedCore)
      assert.match(
        readFileSync(fromRoot(file), "utf8"),
        /^(export \{[^}]*\} from|import) "(\.\/|(\.\.\/)+)core-modules\.js";\n$/,
        `${file} is a facade`,
      );
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
    // No package at all: ipaddr.js (the CIDR parser of --allow-network) was the last one, and as
    // the first CommonJS module of the process it cost Node 20 ~70 ms of the run's CPU.
    assert.deepEqual(loaded.offline, [], `loaded: ${loaded.offline}`);
    // The command line comes folded (scripts/fold-cli.mjs): a few files of dist/cli itself, none
    // from its subdirectories, where tsc writes one file per module (32 of them were loaded).
    const cliFiles = loaded["files:offline"]?.filter((f) => f.startsWith("dist/cli/")) ?? [];
    assert.ok(cliFiles.includes("dist/cli/bin.js"), `${cliFiles}`);
    assert.ok(cliFiles.length <= 8, `${cliFiles.length} files of dist/cli: ${cliFiles}`);
    assert.deepEqual(
      cliFiles.filter((f) => f.slice("dist/cli/".length).includes("/")),
      [],
    );
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
