import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, it } from "node:test";
import { freePort } from "../helpers/redis-server.js";

// The port a test Redis is started on, and restarted on after a stop (tests/helpers/redis-server.ts).
describe("freePort: where the tests' Redis servers listen", () => {
  it("is below the kernel's ephemeral range, so no source port or listen(0) takes it while Redis is down", async () => {
    // Linux's range; elsewhere the usual start, as freePort assumes.
    const range = "/proc/sys/net/ipv4/ip_local_port_range";
    const low = existsSync(range) ? Number(readFileSync(range, "utf8").trim().split(/\s+/)[0]) : 32_768;
    const ports = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      assert.ok(port >= 10_000 && port < low, `port ${port}, ephemeral range from ${low}`);
      ports.add(port);
    }
    // Chosen at random, not one fixed port every concurrent test file would fight over.
    assert.ok(ports.size > 10, `${ports.size} distinct ports of 20`);
  });

  it("is free: a server can listen on it", async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
