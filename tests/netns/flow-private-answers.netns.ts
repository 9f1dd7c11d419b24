// Runs ONLY inside a loopback-only network namespace (see tests/integration/netns.test.ts): here a
// resolver answers private and public addresses, so a wrong policy would dial them. In the
// namespace nothing but lo exists, so even a bug cannot send a packet off this machine.
import assert from "node:assert/strict";
import { networkInterfaces } from "node:os";
import { after, before, describe, it } from "node:test";
import { isFetchError, isSecurityError } from "../../src/errors/guards.js";
import { resolve } from "../../src/resolve/one-shot.js";
import type { Trace } from "../../src/resolve/types.js";
import { routes, type Site, sendHtml, startSite } from "../integration/site.js";

const interfaces = Object.keys(networkInterfaces());
if (interfaces.some((name) => name !== "lo")) {
  throw new Error(`refusing to run outside a loopback-only namespace (interfaces: ${interfaces.join(", ")})`);
}

const PRIVATE = [
  "10.0.0.1",
  "192.168.1.1",
  "172.16.0.1",
  "169.254.169.254",
  "100.64.0.1",
  "fd00::1",
  "fe80::1",
];
// Documentation-free, globally routable addresses: the policy admits them; the namespace has no route.
const PUBLIC = ["8.8.8.8", "2606:4700:4700::1111"];

describe("private and public DNS answers (netns)", () => {
  let site: Site;
  before(async () => {
    site = await startSite(
      routes({
        "/declares-private": (_q, r) =>
          sendHtml(r, `<link rel="canonical" href="http://intranet.test:${site.server.port}/x">`),
      }),
    );
  });
  after(() => site.close());

  for (const answer of PRIVATE) {
    it(`refuses a ${answer} answer before connecting`, async () => {
      await assert.rejects(
        resolve(`http://intranet.test:${site.server.port}/`, site.options({}, { "intranet.test": [answer] })),
        (e) => isSecurityError(e) && e.code === "blocked-address" && e.message.includes(answer),
      );
    });
  }

  it("drops a canonical whose name answers a private address", async () => {
    let trace: Trace | undefined;
    const result = await resolve(
      site.url("/declares-private"),
      site.options({ hooks: { onComplete: (t) => (trace = t) } }, { "intranet.test": ["10.1.2.3"] }),
    );
    assert.equal(result.url, site.url("/declares-private"));
    assert.equal(trace?.droppedHints[0]?.reason, "blocked-address");
  });

  for (const answer of PUBLIC) {
    it(`lets a public ${answer} answer through the policy (the namespace has no route)`, async () => {
      await assert.rejects(
        resolve(
          "http://public.test/",
          site.options({ allowedPorts: [80], connectTimeoutMs: 2000 }, { "public.test": [answer] }),
        ),
        (e) => isFetchError(e) && e.code === "connection-failed",
      );
    });
  }

  it("allowPrivateNetworks relaxes the policy but still pins to the answer", async () => {
    await assert.rejects(
      resolve(
        "http://intranet.test/",
        site.options(
          { allowPrivateNetworks: true, allowedPorts: [80], connectTimeoutMs: 2000 },
          { "intranet.test": ["10.0.0.1"] },
        ),
      ),
      (e) =>
        (isFetchError(e) && e.code === "connection-failed") || (e as { code?: string }).code === "timeout",
    );
  });
});
