import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadedPackages } from "../package/loaded-modules.js";

describe("canonurl/fleet is the only door to BullMQ", () => {
  it("canonurl and a resolve load no bullmq; importing canonurl/fleet neither; createFleet does", {
    timeout: 30_000,
  }, async () => {
    const loaded = await loadedPackages(`
const m = await import("canonurl");
const client = m.createClient();
await client.resolve("ftp://blocked.test/").catch(() => {});
await client.close();
checkpoint("canonurl");
const f = await import("canonurl/fleet");
if (typeof f.createFleet !== "function") throw new Error("createFleet");
checkpoint("fleet");
// bullmq and redis are optional peers: they load when a fleet is created (nothing connects yet).
const fleet = f.createFleet({ redis: "redis://127.0.0.1:1" });
checkpoint("created");
await fleet.close();
`);
    assert.ok(!loaded.canonurl?.includes("bullmq"), `canonurl loaded: ${loaded.canonurl}`);
    assert.ok(!loaded.fleet?.includes("bullmq"), `importing canonurl/fleet loaded: ${loaded.fleet}`);
    assert.ok(loaded.created?.includes("bullmq"), `createFleet loaded: ${loaded.created}`);
    assert.ok(loaded.created?.includes("redis"), `createFleet loaded: ${loaded.created}`);
  });
});
