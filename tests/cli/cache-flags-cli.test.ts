import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DEFAULT_CACHE_FILE, defaultCacheDir } from "../../src/cli/flags/cache-flags.js";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { testRedisUrl } from "../helpers/redis-server.js";
import { loopbackArgs, runCli, testEnv } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("the default cache directory (XDG Base Directory)", () => {
  it("$XDG_CACHE_HOME/canonurl when absolute, else ~/.cache/canonurl", () => {
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/u" }), "/x/cache/canonurl");
    // A relative XDG_CACHE_HOME is to be ignored, the convention says.
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: "rel", HOME: "/home/u" }), "/home/u/.cache/canonurl");
    assert.equal(defaultCacheDir({ HOME: "/home/u" }), "/home/u/.cache/canonurl");
    assert.equal(defaultCacheDir({}, "/home/fallback"), "/home/fallback/.cache/canonurl");
  });
});

describe("cache and network flags: usage errors (exit 2, nothing read)", () => {
  for (const [args, message] of [
    [["--offline", "--no-cache"], /--no-cache is a network-mode flag/],
    [["--offline", "--resolve", "a.test:127.0.0.1"], /--resolve is a network-mode flag/],
    [["--offline", "--host-concurrency", "2"], /--host-concurrency is a network-mode flag/],
    [["--cache", "x.sqlite", "--no-cache"], /--cache and --no-cache contradict/],
    [["--refresh", "--no-cache"], /--refresh and --no-cache contradict/],
    [["--host-concurrency", "0"], /--host-concurrency must be an integer from 1 to 1000/],
    [["--resolve", "nocolon"], /--resolve must be HOST:ADDRESS/],
    [["--allowed-port", "99999"], /--allowed-port must be an integer/],
    [["--progress", "--no-progress"], /--progress and --no-progress contradict/],
  ] as const) {
    it(args.join(" "), async () => {
      // Arguments only: the first case spawns the built binary, the others run main() in-process.
      const r = await (args[1] === "--no-cache" ? runCli : runMain)([...args, "http://a.test/"]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, message);
    });
  }
});

// A run of the built binary against a local server that counts requests: --resolve sends
// site.test to 127.0.0.1, and nothing else is reachable.

describe("the resolution cache of network mode (the built binary)", () => {
  let server: LocalServer;
  let inputs: string[];
  before(async () => {
    server = await startLocalServer({
      handler: (request, response) => {
        if (request.url?.startsWith("/r/")) {
          response.writeHead(301, { location: request.url.replace("/r/", "/p/") });
          response.end();
        } else {
          response.writeHead(200, { "content-type": "text/plain" });
          response.end("ok");
        }
      },
    });
    const origin = server.origin("site.test");
    // 60 inputs over 30 distinct URLs, half of them redirects.
    inputs = Array.from({ length: 60 }, (_, i) => `${origin}/${i % 2 === 0 ? "r" : "p"}/${i % 30}`);
  });
  after(() => server.close());

  async function run(flags: string[], env: NodeJS.ProcessEnv = testEnv) {
    const before = server.requests;
    const args = [...loopbackArgs(server.port, ["site.test"]), ...flags];
    const r = await runCli(args, `${inputs.join("\n")}\n`, env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split("\n").length - 1, inputs.length);
    return { stdout: r.stdout, requests: server.requests - before };
  }

  function home(): { env: NodeJS.ProcessEnv; home: string } {
    const dir = tempDir("canonurl-home-");
    // XDG_CACHE_HOME empty counts as unset (the XDG convention), and keeps runCli from giving the
    // run its test cache directory: the cache must land under this HOME.
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, XDG_CACHE_HOME: "" };
    return { env, home: dir };
  }

  it("by default: SQLite under ~/.cache/canonurl, and a second run over the same input makes zero requests", async () => {
    const { env, home: dir } = home();
    const first = await run([], env);
    assert.ok(first.requests > 0);
    assert.ok(existsSync(join(dir, ".cache", "canonurl", DEFAULT_CACHE_FILE)), "the default cache file");
    const second = await run([], env);
    assert.equal(second.requests, 0, "the second run resolved from the cache");
    assert.equal(second.stdout, first.stdout);
  });

  it("$XDG_CACHE_HOME moves it; --refresh resolves anew and stores; --no-cache neither reads nor writes", async () => {
    const xdg = tempDir("canonurl-xdg-");
    const env = { ...testEnv, XDG_CACHE_HOME: xdg };
    const first = await run([], env);
    assert.ok(existsSync(join(xdg, "canonurl", DEFAULT_CACHE_FILE)));
    const refreshed = await run(["--refresh"], env);
    assert.equal(refreshed.requests, first.requests, "--refresh asked the network for every input again");
    assert.equal((await run([], env)).requests, 0);
    const { env: bare, home: dir } = home();
    const a = await run(["--no-cache"], bare);
    const b = await run(["--no-cache"], bare);
    // Without a cache nothing carries over (and duplicates are not shared: 60 inputs, 90 requests).
    assert.ok(a.requests >= first.requests);
    assert.equal(b.requests, a.requests);
    assert.equal(existsSync(join(dir, ".cache")), false, "--no-cache created no cache");
  });

  it("--cache FILE and --cache redis://: the second run makes zero requests", async () => {
    const file = join(tempDir("canonurl-cachefile-"), "mine.sqlite");
    assert.ok((await run(["--cache", file])).requests > 0);
    assert.ok(existsSync(file));
    assert.equal((await run(["--cache", file])).requests, 0);
    const redis = testRedisUrl();
    assert.ok((await run(["--cache", redis])).requests > 0);
    assert.equal((await run(["--cache", redis])).requests, 0);
  });

  // A cache that cannot be used never fails the run, and never leaves it silent either: a user
  // would believe reruns are cached when they are not (issue 21). One stderr line, not one per URL.
  for (const [label, target] of [
    ["a directory given as the file", () => tempDir("canonurl-cachedir-")],
    ["a Redis server that is not there", () => "redis://127.0.0.1:1/0"],
  ] as const) {
    it(`--cache naming ${label}: the run succeeds and stderr says once that it is not cached`, async () => {
      const where = target();
      const before = server.requests;
      const args = [...loopbackArgs(server.port, ["site.test"]), "--cache", where];
      const r = await runCli(args, `${inputs.join("\n")}\n`);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.split("\n").length - 1, inputs.length);
      assert.ok(server.requests - before >= 30, "every distinct URL was resolved");
      const lines = r.stderr.split("\n").filter((l) => l !== "");
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(
        lines[0]?.startsWith(`canonurl: the cache (${where}) is not working, so this run is not cached: `),
        r.stderr,
      );
    });
  }

  it("--json says which answers came from the cache", async () => {
    const file = join(tempDir("canonurl-cachefile-"), "json.sqlite");
    const cold = await run(["--json", "--cache", file]);
    const warm = await run(["--json", "--cache", file]);
    const cached = (text: string) =>
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).cached as boolean);
    assert.ok(cached(warm.stdout).every((c) => c));
    assert.equal(cached(cold.stdout).filter((c) => c).length < inputs.length, true);
  });
});

// The same link resolved through two --resolve maps must not share a cached answer: a run that sends
// site.test to another address asks that address, whatever an earlier run stored (the cache key
// carries the map, issue 23). Two servers on one port, one on 127.0.0.1 and one on [::1], redirect
// the same path to different places.
describe("the resolution cache keeps --resolve maps apart (the built binary)", () => {
  let v4: LocalServer;
  let v6: LocalServer;
  before(async () => {
    const redirectTo = (where: string) => (request: IncomingMessage, response: ServerResponse) => {
      if (request.url?.startsWith("/r/")) {
        response.writeHead(301, { location: request.url.replace("/r/", `/${where}/`) });
        response.end();
      } else {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(where);
      }
    };
    v4 = await startLocalServer({ handler: redirectTo("v4") });
    // The same port on the IPv6 loopback: the link (host and port) is the same in both runs.
    v6 = await startLocalServer({ host: "::1", port: v4.port, handler: redirectTo("v6") });
  });
  after(() => Promise.all([v4.close(), v6.close()]));

  it("a second map asks its own address, and each map's run is then answered from the cache", async () => {
    const file = join(tempDir("canonurl-cachemaps-"), "maps.sqlite");
    const link = `http://site.test:${v4.port}/r/1`;
    // Both runs allow both loopbacks: the allowed networks are in the key too, and only the map
    // may tell the runs apart here.
    const run = async (address: string) => {
      const args = [
        "--resolve",
        `site.test:${address}`,
        "--allow-network",
        "127.0.0.1/32",
        "--allow-network",
        "::1/128",
        "--allowed-port",
        String(v4.port),
        "--cache",
        file,
      ];
      const r = await runCli(args, `${link}\n`);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.trim();
    };
    const viaV4 = await run("127.0.0.1");
    assert.equal(viaV4, `http://site.test:${v4.port}/v4/1`);
    assert.ok(v4.requests > 0);
    const viaV6 = await run("[::1]");
    assert.equal(
      viaV6,
      `http://site.test:${v4.port}/v6/1`,
      "the [::1] run was answered with 127.0.0.1's redirect",
    );
    assert.ok(v6.requests > 0, "the [::1] run asked [::1]");
    // Each map's answer is in the cache: a rerun of either asks nobody.
    const [four, six] = [v4.requests, v6.requests];
    assert.equal(await run("127.0.0.1"), viaV4);
    assert.equal(await run("[::1]"), viaV6);
    assert.deepEqual([v4.requests, v6.requests], [four, six], "the reruns were answered from the cache");
  });
});
