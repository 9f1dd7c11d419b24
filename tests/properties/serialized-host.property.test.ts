import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { serializedAuthority, serializedHostEnd, serializedUrl } from "../../src/url/serialized-host.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { hostileUrl, nearSerialized, urlish } from "../helpers/url-arbitraries.js";

// serializedHostEnd lets normalize() skip the parse: wherever it accepts, the parser must read the
// same scheme and host, no userinfo and no port, and spell the href's start as the text does. The
// parser itself is the oracle.

const SEED = 20261205;
const RUNS = fuzzRuns(5000);

describe("serializedHostEnd against the WHATWG parser (fast-check, fixed seed)", () => {
  it("accepts only text whose scheme and host the parser spells as written", () => {
    const reached = { accepted: 0, acceptedEmptyPath: 0, refused: 0, refusedButParses: 0 };
    fc.assert(
      fc.property(fc.oneof(nearSerialized, urlish, hostileUrl), (input) => {
        const end = serializedHostEnd(input);
        let url: URL | undefined;
        try {
          url = new URL(input);
        } catch {}
        if (end === -1) {
          reached.refused++;
          if (url !== undefined) reached.refusedButParses++;
          return;
        }
        reached.accepted++;
        assert.ok(url !== undefined, `accepted ${JSON.stringify(input)}, which does not parse`);
        const start = input.startsWith("https://") ? 8 : 7;
        assert.equal(url.protocol, input.slice(0, start - 2), JSON.stringify(input));
        assert.equal(url.hostname, input.slice(start, end), JSON.stringify(input));
        assert.equal(url.host, url.hostname, `a port in ${JSON.stringify(input)}`);
        assert.equal(url.username + url.password, "", `userinfo in ${JSON.stringify(input)}`);
        assert.ok(
          url.href.startsWith(`${input.slice(0, end)}/`),
          `${url.href} from ${JSON.stringify(input)}`,
        );
        if (input.charCodeAt(end) !== 0x2f) reached.acceptedEmptyPath++;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 100, `${branch}: only ${count} of ${RUNS} inputs reached it`);
    assert.ok(reached.accepted > RUNS / 10, `accepted only ${reached.accepted} of ${RUNS}`);
  });

  it("refuses each form the parser rewrites", () => {
    for (const input of [
      "HTTPS://example.com/",
      "https://Example.com/",
      "https://example.com:443/",
      "https://example.com:/",
      "https://u@example.com/",
      "https://127.0.0.1/",
      "https://a.1/",
      "https://a.0x7f/",
      "https://xn--zz.com/",
      "https://a.xn--zz/",
      "https://a..com/",
      "https://.a.com/",
      "https://a.com./",
      "https://",
      "https:///x",
      " https://a.com/",
      "https://a\tb.com/",
      "https://a.com\\x",
      "https://m\u00fcnchen.de/",
      "https://a%2ecom/",
    ])
      assert.equal(serializedHostEnd(input), -1, JSON.stringify(input));
    assert.equal(serializedHostEnd("https://a-b.example.com"), 23);
    assert.equal(serializedHostEnd("http://x1.test?q"), 14);
  });

  it("serializedAuthority writes scheme, host and port as the parser does", () => {
    // otherHost: a host the plain-domain check refuses (IDN, xn--, IP addresses, escapes, a
    // trailing dot), read by the parser through parsedHost's memo.
    const reached = { accepted: 0, lowercased: 0, portDropped: 0, portKept: 0, otherHost: 0, refused: 0 };
    // Four times the runs: a kept port needs an "off" tail on an otherwise clean authority.
    const runs = RUNS * 4;
    fc.assert(
      fc.property(fc.oneof(nearSerialized, urlish, hostileUrl), (input) => {
        const near = serializedAuthority(input);
        if (near === undefined) {
          reached.refused++;
          return;
        }
        reached.accepted++;
        let url: URL | undefined;
        try {
          url = new URL(input);
        } catch {}
        assert.ok(url !== undefined, `accepted ${JSON.stringify(input)}, which does not parse`);
        assert.equal(near.prefix, `${url.protocol}//${url.host}`, JSON.stringify(input));
        assert.equal(near.hostname, url.hostname, JSON.stringify(input));
        assert.equal(near.serialized, input.slice(0, near.end) === near.prefix, JSON.stringify(input));
        assert.equal(url.username + url.password, "", `userinfo in ${JSON.stringify(input)}`);
        // What follows the authority is the parser's to read as path, query or fragment.
        const rest = input.slice(near.end);
        assert.ok(rest === "" || "/?#".includes(rest.charAt(0)), JSON.stringify(input));
        const start = input.charCodeAt(4) === 0x3a ? 7 : 8;
        if (!/^[a-z0-9.-]*$/.test(input.slice(start, near.end).toLowerCase().replace(/:\d+$/, "")))
          reached.otherHost++;
        else if (input.slice(0, near.end) !== near.prefix) {
          if (input.slice(0, near.end).toLowerCase() === near.prefix) reached.lowercased++;
          else if (url.port === "") reached.portDropped++;
          else reached.portKept++;
        }
      }),
      { seed: SEED, numRuns: runs },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > runs / 1000, `${branch}: only ${count} of ${runs} inputs reached it`);
    for (const input of [
      "https://a.com:65536/",
      "https://a.com:/",
      "https://u@a.com/",
      "https://a.1/",
      "https://a.com:443:443/",
      "https://a.com:123456/",
      "http:///a.com/",
      "http://a b.com/",
      "http://a.com\\x/",
      "http://a.com\t/",
      "http://[::1/",
      "http://[::1]:/",
      "http://[::1]x/",
      "http://u:p@[::1]/",
      "http://ex%2Fample.com/",
    ])
      assert.equal(serializedAuthority(input), undefined, JSON.stringify(input));
    // An invalid punycode label as the running parser reads it (Node 20 refuses it, Node 26 lowercases it).
    let xn: string | undefined;
    try {
      xn = `https://${new URL("https://XN--zz.com/").host}`;
    } catch {}
    assert.equal(serializedAuthority("https://XN--zz.com/")?.prefix, xn);
    // Hosts the parser rewrites, read through parsedHost: IDN, IPv4 in any form, IPv6, escapes.
    for (const [input, prefix] of [
      ["https://a.com.:443/", "https://a.com."],
      ["HTTPS://Bücher.Example:8443/x", "https://xn--bcher-kva.example:8443"],
      ["http://0x7f.1/", "http://127.0.0.1"],
      ["http://127.0.0.1:80?q", "http://127.0.0.1"],
      ["http://[2001:DB8:0:0::1]:0080/", "http://[2001:db8::1]"],
      ["http://[::1]#x", "http://[::1]"],
      ["http://ex%41mple.com/", "http://example.com"],
      ["https://xn--bcher-kva.example/", "https://xn--bcher-kva.example"],
    ] as const) {
      assert.equal(serializedAuthority(input)?.prefix, prefix, input);
      assert.equal(serializedAuthority(input)?.prefix, prefix, `${input}, remembered`);
    }
    assert.deepEqual(serializedAuthority("HTTP://A.Test:0080?x"), {
      text: "HTTP://A.Test:0080",
      prefix: "http://a.test",
      hostname: "a.test",
      end: 18,
      serialized: false,
      cache: undefined,
    });
    assert.equal(serializedAuthority("http://a.test:8080/")?.serialized, true);
    assert.equal(serializedAuthority("http://a.test:0/")?.serialized, true);
    assert.equal(serializedAuthority("http://a.test:80/")?.serialized, false);
    assert.equal(serializedAuthority("https://a.test:080/")?.prefix, "https://a.test:80");
  });

  it("serializedUrl reads every part as the parser's getters give it", () => {
    const reached = { read: 0, withQuery: 0, withFragment: 0, emptyPath: 0, refused: 0 };
    fc.assert(
      fc.property(fc.oneof(nearSerialized, urlish, hostileUrl), (input) => {
        const text = serializedUrl(input);
        if (text === undefined) {
          reached.refused++;
          return;
        }
        reached.read++;
        const url = new URL(input);
        for (const key of [
          "href",
          "protocol",
          "username",
          "password",
          "hostname",
          "port",
          "pathname",
          "search",
          "hash",
        ] as const)
          assert.equal(text[key], url[key], `${key} of ${JSON.stringify(input)}`);
        if (text.search !== "") reached.withQuery++;
        if (text.hash !== "") reached.withFragment++;
        if (text.href !== input) reached.emptyPath++; // the "/" of an empty path put in
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // An empty path needs an empty list of segments and no slash: rarer than the others.
    for (const [branch, count] of Object.entries(reached))
      assert.ok(
        count > RUNS / (branch === "emptyPath" ? 250 : 100),
        `${branch}: only ${count} of ${RUNS} inputs reached it`,
      );
  });
});
