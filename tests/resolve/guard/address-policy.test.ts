import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ipPolicy } from "../../../src/generated/data.js";
import {
  createAddressPolicy,
  isGloballyRoutable,
  parseCidr,
} from "../../../src/resolve/guard/address-policy.js";
import { formatIp, parseIp } from "../../../src/resolve/guard/ip-address.js";
import { builtInIpTables, compileIpTables } from "../../../src/resolve/guard/ip-tables.js";

const strict = createAddressPolicy({ allowPrivateNetworks: false, allowedNetworks: [] });
const tables = builtInIpTables();

function inAny(ranges: readonly { first: bigint; last: bigint }[], value: bigint): boolean {
  return ranges.some((r) => value >= r.first && value <= r.last);
}

describe("the IANA tables in data/ip-policy.yaml", () => {
  it("carry their sources and the date they were taken", () => {
    assert.equal(tables.provenance.length, 3);
    for (const p of tables.provenance) {
      assert.match(p.source, /^IANA /);
      assert.equal(p.taken, "2026-12-02");
      assert.match(p.updated, /^\d{4}-\d{2}-\d{2}/);
    }
  });

  it("hold every non-global IPv4 block the policy is built on", () => {
    const cidrs = tables.ipv4Blocked.map((r) => r.cidr);
    for (const expected of [
      "0.0.0.0/8",
      "10.0.0.0/8",
      "100.64.0.0/10",
      "127.0.0.0/8",
      "169.254.0.0/16",
      "172.16.0.0/12",
      "192.0.0.0/24",
      "192.0.2.0/24",
      "192.31.196.0/24",
      "192.52.193.0/24",
      "192.88.99.0/24",
      "192.168.0.0/16",
      "192.175.48.0/24",
      "198.18.0.0/15",
      "198.51.100.0/24",
      "203.0.113.0/24",
      "224.0.0.0/4",
      "240.0.0.0/4",
      "255.255.255.255/32",
    ]) {
      assert.ok(cidrs.includes(expected), `missing ${expected}`);
    }
  });

  it("allow only RIR allocations in IPv6, each inside 2000::/3", () => {
    const global = parseCidr("2000::/3");
    assert.ok(tables.ipv6Allocations.length >= 30);
    for (const r of tables.ipv6Allocations) {
      assert.ok(r.first >= global.first && r.last <= global.last, `${r.cidr} outside 2000::/3`);
      assert.match(r.label, /^allocated to (AFRINIC|APNIC|ARIN|LACNIC|RIPE NCC)$/);
    }
    // The compiled allow-list never overlaps a special-purpose block.
    for (const r of tables.ipv6Allowed) {
      for (const s of tables.ipv6Special) {
        assert.ok(r.last < s.first || r.first > s.last, `allowed range overlaps ${s.cidr}`);
      }
    }
  });

  it("refuse a malformed data file at load instead of trusting it", () => {
    const good = structuredClone(ipPolicy) as {
      ipv4: { blocked: { cidr: string }[]; taken?: string };
      ipv6: { special: { blocked: { cidr: string }[] } };
    };
    assert.doesNotThrow(() => compileIpTables(good));
    const missing = structuredClone(good);
    delete missing.ipv4.taken;
    assert.throws(() => compileIpTables(missing), /ipv4\.taken/);
    const badCidr = structuredClone(good);
    (badCidr.ipv4.blocked[0] as { cidr: string }).cidr = "10.0.0.0/33";
    assert.throws(() => compileIpTables(badCidr), /10\.0\.0\.0\/33/);
    const wrongFamily = structuredClone(good);
    (wrongFamily.ipv6.special.blocked[0] as { cidr: string }).cidr = "10.0.0.0/8";
    assert.throws(() => compileIpTables(wrongFamily), /not an IPv6 block/);
    assert.throws(() => compileIpTables({}), TypeError);
  });
});

describe("address policy: first and last address of every block", () => {
  it("refuses both ends of every IPv4 block", () => {
    let checked = 0;
    for (const block of tables.ipv4Blocked) {
      for (const value of [block.first, block.last]) {
        const address = formatIp(4, value);
        const verdict = strict(address);
        assert.equal(verdict.allowed, false, `${address} (${block.cidr}) allowed`);
        assert.match(verdict.reason, /^in \S+\/\d+ /);
        assert.equal(isGloballyRoutable(address), false, address);
        checked++;
      }
    }
    assert.equal(checked, tables.ipv4Blocked.length * 2);
  });

  it("refuses both ends of every IPv6 special-purpose block", () => {
    for (const block of tables.ipv6Special) {
      for (const value of [block.first, block.last]) {
        const address = formatIp(6, value);
        assert.equal(strict(address).allowed, false, `${address} (${block.cidr}) allowed`);
        assert.equal(isGloballyRoutable(address), false, address);
      }
    }
  });

  it("allows both ends of every IPv6 allocation unless a special block holds them", () => {
    let allowed = 0;
    for (const block of tables.ipv6Allocations) {
      for (const value of [block.first, block.last]) {
        const address = formatIp(6, value);
        const expected = !inAny(tables.ipv6Special, value);
        assert.equal(strict(address).allowed, expected, `${address} (${block.cidr})`);
        if (expected) allowed++;
      }
    }
    // Only a handful of ends can sit in a special block; most must be reachable.
    assert.ok(allowed >= tables.ipv6Allocations.length * 2 - 2, `only ${allowed} ends allowed`);
  });

  it("allows the public neighbours just outside the IPv4 blocks", () => {
    for (const address of [
      "1.0.0.0",
      "9.255.255.255",
      "11.0.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "126.255.255.255",
      "128.0.0.0",
      "169.253.255.255",
      "169.255.0.0",
      "172.15.255.255",
      "172.32.0.0",
      "191.255.255.255",
      "192.0.1.0",
      "192.0.3.0",
      "192.88.98.255",
      "192.88.100.0",
      "192.167.255.255",
      "192.169.0.0",
      "198.17.255.255",
      "198.20.0.0",
      "198.51.99.255",
      "198.51.101.0",
      "203.0.112.255",
      "203.0.114.0",
      "223.255.255.255",
      "93.184.216.34",
    ]) {
      assert.equal(strict(address).allowed, true, address);
      assert.equal(isGloballyRoutable(address), true, address);
    }
  });

  it("allows and refuses the edges of the holes cut into IPv6 allocations", () => {
    assert.equal(strict("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff").allowed, true);
    assert.equal(strict("2001:db8::").allowed, false);
    assert.equal(strict("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff").allowed, false);
    assert.equal(strict("2001:db9::").allowed, true);
    assert.equal(strict("2620:4f:7fff:ffff:ffff:ffff:ffff:ffff").allowed, true);
    assert.equal(strict("2620:4f:8000::1").allowed, false);
    assert.equal(strict("2620:4f:8001::").allowed, true);
    assert.equal(strict("2606:4700:4700::1111").allowed, true);
    assert.equal(strict("2a00:1450:4001:81a::200e").allowed, true);
  });
});

describe("address policy: known bypass forms", () => {
  // Each URL host below is a loopback, private or otherwise internal address in disguise. The WHATWG
  // parser canonicalizes it; the policy must refuse what comes out.
  const disguised: [string, string][] = [
    ["http://2130706433/", "127.0.0.1"], // decimal
    ["http://0177.0.0.1/", "127.0.0.1"], // octal
    ["http://0x7f.1/", "127.0.0.1"], // hex + short
    ["http://0x7f000001/", "127.0.0.1"], // hex
    ["http://127.1/", "127.0.0.1"], // short
    ["http://0/", "0.0.0.0"],
    ["http://012.0x1.1/", "10.1.0.1"],
    ["http://3232235521/", "192.168.0.1"],
    ["http://0xa9fea9fe/", "169.254.169.254"], // cloud metadata, hex
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"], // IPv4-mapped
    ["http://[::ffff:a9fe:a9fe]/", "[::ffff:a9fe:a9fe]"], // mapped metadata
    ["http://[::127.0.0.1]/", "[::7f00:1]"], // IPv4-compatible
    ["http://[64:ff9b::127.0.0.1]/", "[64:ff9b::7f00:1]"], // NAT64
    ["http://[64:ff9b:1::a00:1]/", "[64:ff9b:1::a00:1]"], // local-use NAT64
    ["http://[2002:7f00:1::]/", "[2002:7f00:1::]"], // 6to4 of 127.0.0.1
    ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "[2001:0:4136:e378:8000:63bf:80ff:fffe]"], // Teredo
    ["http://[::1]/", "[::1]"],
    ["http://[::]/", "[::]"],
    ["http://[fe80::1]/", "[fe80::1]"],
    ["http://[fec0::1]/", "[fec0::1]"],
    ["http://[fd00::1]/", "[fd00::1]"],
    ["http://[ff02::1]/", "[ff02::1]"],
    ["http://[2001:db8::1]/", "[2001:db8::1]"],
    ["http://[3fff::1]/", "[3fff::1]"],
    ["http://[4000::1]/", "[4000::1]"], // unallocated
    ["http://[2d00::1]/", "[2d00::1]"], // IANA reserved
  ];

  for (const [input, hostname] of disguised) {
    it(`refuses ${input}`, () => {
      const url = new URL(input);
      assert.equal(url.hostname, hostname);
      const bare = hostname.replace(/^\[|\]$/g, "");
      assert.equal(isGloballyRoutable(bare), false);
      assert.equal(isGloballyRoutable(hostname), false, "bracketed form");
      assert.equal(strict(bare).allowed, false);
    });
  }

  it("never trusts an address it cannot parse canonically", () => {
    for (const text of [
      "0177.0.0.1",
      "127.1",
      "0x7f.0.0.1",
      "2130706433",
      "fe80::1%eth0",
      "",
      "a.test",
      "::g",
    ]) {
      assert.equal(parseIp(text), null, text);
      assert.equal(isGloballyRoutable(text), false, text);
      const open = createAddressPolicy({
        allowPrivateNetworks: true,
        allowedNetworks: ["0.0.0.0/0", "::/0"],
      });
      assert.equal(open(text).allowed, false, `${text} passed an open policy`);
    }
  });
});

describe("parseCidr", () => {
  it("compiles v4 and v6 blocks to inclusive ranges", () => {
    assert.deepEqual(parseCidr("10.0.0.0/8"), {
      version: 4,
      first: 0x0a000000n,
      last: 0x0affffffn,
      cidr: "10.0.0.0/8",
    });
    const v6 = parseCidr("2001:DB8::/32");
    assert.equal(v6.version, 6);
    assert.equal(v6.cidr, "2001:db8::/32");
    assert.equal(v6.last - v6.first, (1n << 96n) - 1n);
    assert.deepEqual(parseCidr("127.0.0.1"), parseCidr("127.0.0.1/32"));
    assert.equal(parseCidr("0.0.0.0/0").last, 0xffffffffn);
  });

  it("throws TypeError for malformed blocks and set host bits", () => {
    for (const bad of [
      "10.0.0.1/8",
      "10.0.0.0/33",
      "10.0.0.0/",
      "10.0.0.0/08",
      "::/129",
      "nope/8",
      "0x7f.1/32",
    ]) {
      assert.throws(() => parseCidr(bad), TypeError, bad);
    }
  });
});

describe("createAddressPolicy options", () => {
  it("lets allowedNetworks through, only within their own family", () => {
    const check = createAddressPolicy({
      allowPrivateNetworks: false,
      allowedNetworks: ["127.0.0.1/32", "fd00::/8"],
    });
    assert.deepEqual(check("127.0.0.1"), { allowed: true, reason: "in allowedNetworks 127.0.0.1/32" });
    assert.equal(check("127.0.0.2").allowed, false);
    assert.equal(check("::ffff:7f00:1").allowed, false, "a v4 network must not admit its mapped form");
    assert.equal(check("fd12::1").allowed, true);
    assert.equal(check("fe80::1").allowed, false);
    assert.equal(check("10.0.0.1").allowed, false);
  });

  it("allowPrivateNetworks relaxes the address check", () => {
    const check = createAddressPolicy({ allowPrivateNetworks: true, allowedNetworks: [] });
    for (const address of ["10.0.0.1", "127.0.0.1", "::1", "fd00::1", "93.184.216.34"]) {
      assert.equal(check(address).allowed, true, address);
    }
  });

  it("names a malformed allowedNetworks entry", () => {
    assert.throws(
      () => createAddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ["10.0.0.0/8", "bogus"] }),
      (error: unknown) => error instanceof TypeError && /allowedNetworks: .*"bogus"/.test(error.message),
    );
  });
});
