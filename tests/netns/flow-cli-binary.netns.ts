// Runs ONLY inside a loopback-only network namespace (see tests/integration/netns.test.ts). The
// built binary cannot be handed a stub resolver, so outside a namespace its network mode could
// only be tested in-process. Here the namespace's root may bind 127.0.0.1:80, the one address and
// port the binary reaches with nothing but `--allow-private`, and nothing else exists to dial.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { after, before, describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";

const interfaces = Object.keys(networkInterfaces());
if (interfaces.some((name) => name !== "lo")) {
  throw new Error(`refusing to run outside a loopback-only namespace (interfaces: ${interfaces.join(", ")})`);
}

// Proxy variables pointing at a port nothing listens on: the binary must ignore them.
const env = { ...process.env, HTTP_PROXY: "http://127.0.0.1:9", http_proxy: "http://127.0.0.1:9" };

describe("the canonurl binary in network mode (netns, 127.0.0.1:80)", () => {
  let server: Server;
  const seen: string[] = [];
  before(async () => {
    server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      switch (request.url) {
        case "/old?utm_source=x":
          response.writeHead(301, { location: "/article" });
          return response.end();
        case "/article":
          response.writeHead(200, { "content-type": "text/html" });
          return response.end('<html><head><link rel="canonical" href="/canonical"></head><body>');
        case "/canonical":
          response.writeHead(200, { "content-type": "text/plain" });
          return response.end();
        case "/loop":
          response.writeHead(302, { location: "/loop2" });
          return response.end();
        case "/loop2":
          response.writeHead(302, { location: "/loop" });
          return response.end();
        default:
          response.writeHead(404);
          return response.end();
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject).listen(80, "127.0.0.1", resolve);
    });
    assert.equal((server.address() as AddressInfo).port, 80);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("follows a redirect and a declared canonical and prints the canonical URL", async () => {
    const run = await runCli(["--allow-private", "http://127.0.0.1/old?utm_source=x"], undefined, env);
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "http://127.0.0.1/canonical\n");
    assert.ok(seen.includes("GET /article"), seen.join(", "));
  });

  it("--json prints chain, source and verified, one line per stdin input, in input order", async () => {
    const run = await runCli(
      ["--allow-private", "--json", "--concurrency", "2"],
      "http://127.0.0.1/old?utm_source=x\nhttp://127.0.0.1/missing\n",
      env,
    );
    assert.equal(run.code, 1);
    const [ok, failed] = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.equal(ok.index, 0);
    assert.equal(ok.url, "http://127.0.0.1/canonical");
    assert.equal(ok.source, "canonical-link");
    assert.equal(ok.verified, true);
    assert.deepEqual(
      ok.chain.map((hop: { url: string; status: number }) => [hop.url, hop.status]),
      [
        ["http://127.0.0.1/old?utm_source=x", 301],
        ["http://127.0.0.1/article", 200],
        ["http://127.0.0.1/canonical", 200],
      ],
    );
    assert.equal(failed.index, 1);
    assert.equal(failed.error.code, "http-status");
  });

  it("without --allow-private the loopback address is refused before any request", async () => {
    const before = seen.length;
    const run = await runCli(["http://127.0.0.1/canonical"], undefined, env);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "\n");
    assert.match(run.stderr, /^0\thttp:\/\/127\.0\.0\.1\/canonical\tblocked-address: /);
    assert.equal(seen.length, before);
  });

  it("--max-hops bounds the chain and a loop is reported as such", async () => {
    const loop = await runCli(["--allow-private", "http://127.0.0.1/loop"], undefined, env);
    assert.equal(loop.code, 1);
    assert.match(loop.stderr, /\tredirect-loop: /);
    const short = await runCli(
      ["--allow-private", "--max-hops", "1", "http://127.0.0.1/old?utm_source=x"],
      undefined,
      env,
    );
    // One follow (the redirect) is allowed; the canonical link would be the second.
    assert.equal(short.code, 0, short.stderr);
    assert.equal(short.stdout, "http://127.0.0.1/article\n");
  });
});
