import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compileClearUrls, type DomainRule, defaultRules, explain, normalize } from "../../src/index.js";
import { rememberedVerdicts, runClearUrls } from "../../src/rules/clearurls/clear-urls-pass.js";
import { anchorLeadingDotStar, compileProvider } from "../../src/rules/clearurls/clear-urls-provider.js";

// One provider per construct, on .test hosts, written the way ClearURLs writes its patterns.
const HOST = (name: string) => `^https?:\\/\\/(?:[a-z0-9-]+\\.)*?${name.replaceAll(".", "\\.")}`;
const data = {
  providers: {
    shop: {
      urlPattern: HOST("shop.test"),
      completeProvider: false,
      rules: ["ref_?", "trk[a-z]*"],
      referralMarketing: ["tag"],
      rawRules: ["\\/ref=[^/?]*"],
      exceptions: [`${HOST("shop.test")}\\/checkout`],
      redirections: [`${HOST("shop.test")}\\/out\\?.*?to=([^&]+)`],
      forceRedirection: false,
    },
    tracker: { urlPattern: HOST("tracker.test"), completeProvider: true, rules: [], exceptions: [] },
    global: { urlPattern: ".*", rules: ["utm_[a-z]+", "zz_[a-z]+"] },
  },
};

function run(url: string, rules: readonly DomainRule[] = compileClearUrls(data).rules) {
  return explain(url, { rules: [...rules] });
}

describe("compileClearUrls: each ClearURLs construct", () => {
  it("a rule strips matching parameter names, case-insensitively, and names the provider", () => {
    const e = run("https://shop.test/item?REF=1&id=2&trkSrc=x");
    assert.equal(e.canonical, "https://shop.test/item?id=2");
    assert.equal(e.ruleApplied, "clearurls:shop");
    assert.deepEqual(e.paramsStripped, ["REF", "trkSrc"]);
  });

  it("a rawRule cuts its match out of the whole URL", () => {
    assert.equal(
      run("https://www.shop.test/item/ref=sr_1_1?id=2").canonical,
      "https://www.shop.test/item?id=2",
    );
  });

  it("an exception exempts the URL from its provider (but not from the others)", () => {
    // (trk, not ref: the identity pass strips ref before any rule runs.)
    const e = run("https://shop.test/checkout?trk=1&zz_id=9");
    assert.equal(e.canonical, "https://shop.test/checkout?trk=1");
    assert.equal(e.ruleApplied, "clearurls:global");
  });

  it("a redirection unwraps, and the target takes the whole pipeline again", () => {
    const target = encodeURIComponent("HTTP://Other.TEST:80/a/./b/?zz_id=1&z=2&a=1");
    const e = run(`https://shop.test/out?x=1&to=${target}`);
    // Generic pass on the target: scheme/host case, default port, dot segment, trailing slash,
    // sorted query; ClearURLs' global provider strips zz_id on the second round.
    assert.equal(e.canonical, "http://other.test/a/b?a=1&z=2");
    assert.equal(e.ruleApplied, "clearurls:global");
    assert.ok(e.steps.filter((s) => s.stage === "parse").length >= 2, "the target was parsed as a new link");
  });

  it("a complete provider blocks: the URL keeps its form and ruleApplied names the blocker", () => {
    const pack = compileClearUrls(data);
    const e = run("https://ads.tracker.test/pixel?id=1", pack.rules);
    assert.equal(e.canonical, "https://ads.tracker.test/pixel?id=1");
    assert.equal(e.ruleApplied, "clearurls:tracker");
    assert.equal(pack.clean("https://ads.tracker.test/pixel?id=1").kind, "blocked");
  });

  it("referral marketing parameters go unless allowed", () => {
    assert.equal(run("https://shop.test/i?tag=aff-21&id=1").canonical, "https://shop.test/i?id=1");
    const allowed = compileClearUrls(data, { allowReferralMarketing: true });
    assert.equal(
      run("https://shop.test/i?tag=aff-21&id=1", allowed.rules).canonical,
      "https://shop.test/i?id=1&tag=aff-21",
    );
  });

  it("a URL no provider changes is not claimed", () => {
    const e = run("https://shop.test/item?id=2");
    assert.equal(e.ruleApplied, null);
    assert.equal(e.canonical, "https://shop.test/item?id=2");
  });

  it("runs after canonurl's rules: a URL one of ours claims never reaches the pack", () => {
    const greedy = compileClearUrls({
      providers: { yt: { urlPattern: HOST("youtube.com"), rules: ["v", "t"] } },
    });
    const e = explain("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42", {
      rules: [...defaultRules, ...greedy.rules],
    });
    assert.equal(e.ruleApplied, "youtube-v3");
    assert.match(e.canonical, /v=dQw4w9WgXcQ/);
    // Alone, the same pack strips both: the order above is what protected them.
    assert.equal(
      run("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42", greedy.rules).canonical,
      "https://www.youtube.com/watch",
    );
  });

  it("normalize stays idempotent with the pack on", () => {
    const rules = [...defaultRules, ...compileClearUrls(data).rules];
    for (const url of [
      "https://shop.test/item/ref=x?REF=1&id=2",
      "https://shop.test/out?to=https%3A%2F%2Fshop.test%2Fa%3Fref%3D1",
    ]) {
      const once = normalize(url, { rules });
      assert.equal(normalize(once, { rules }), once, url);
    }
  });

  it("a URL longer than maxUrlLength is left alone (bounds what any regex of the file costs)", () => {
    const pack = compileClearUrls(data, { maxUrlLength: 100 });
    const long = `https://shop.test/${"a".repeat(100)}?trk=1`;
    assert.equal(pack.clean(long).kind, "untouched");
    assert.equal(run(long, pack.rules).canonical, long);
    assert.equal(pack.clean("https://shop.test/?trk=1").kind, "cleaned");
  });

  it("a leading .* is anchored: the same match as the search, without retrying every position", () => {
    // instagram's and rutracker's redirections in the shipped file have this shape.
    const source = ".*u=([^&]*)";
    assert.equal(anchorLeadingDotStar(source), "^(?:.*u=([^&]*))");
    assert.equal(anchorLeadingDotStar(".*a|b"), ".*a|b", "a top-level | keeps its meaning");
    assert.equal(anchorLeadingDotStar("^https?:\\/\\/x"), "^https?:\\/\\/x");
    const plain = new RegExp(source, "i");
    const anchored = new RegExp(anchorLeadingDotStar(source), "i");
    let found = 0;
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("u", "=", "&", "a", "U", "%"), maxLength: 40 }),
        (text) => {
          const a = plain.exec(text);
          const b = anchored.exec(text);
          assert.deepEqual(b === null ? null : [...b], a === null ? null : [...a]);
          if (a !== null) found++;
        },
      ),
      { seed: 14, numRuns: 500 },
    );
    assert.ok(found > 50, `the match branch was reached ${found} times`);
    // Through the pack: a wrapped link still unwraps; text with a line terminator is left alone.
    const pack = compileClearUrls({
      providers: { ig: { urlPattern: HOST("ig.test"), redirections: [source] } },
    });
    assert.equal(pack.clean("https://ig.test/l?x=1&u=https%3A%2F%2Fa.test%2F").href, "https://a.test/");
    assert.equal(pack.clean("https://ig.test/l?u=https%3A%2F%2Fa.test%2F\n").kind, "untouched");
  });

  it("a URL object changed between two scans is evaluated again", () => {
    const { rules } = compileClearUrls(data);
    const [shop, , global] = rules as [DomainRule, DomainRule, DomainRule];
    const url = new URL("https://shop.test/?ref=1");
    assert.equal(shop.match(url), true);
    url.href = "https://elsewhere.test/?utm_source=x";
    assert.equal(shop.match(url), false, "a new scan starts at the first rule");
    assert.equal(global.match(url), true);
  });

  it("parameter removal equals the add-on's split-decode-test of every field, with or without a change", () => {
    // The pass skips the rebuild when no name goes and the URL has no empty piece; the reference
    // always rebuilds. Names are remembered per provider (bounded), so distinct names pass too.
    const provider = compileProvider("p", { urlPattern: ".*", rules: ["utm_[a-z0-9]+", "ref"] }, 0, false);
    const params = provider.params as RegExp;
    const decode = (n: string) => {
      try {
        return decodeURIComponent(n.replaceAll("+", " "));
      } catch {
        return n.replaceAll("+", " ");
      }
    };
    const filter = (list: string) =>
      list
        .split("&")
        .filter((piece) => piece !== "" && !params.test(decode(piece.split("=")[0] as string)))
        .join("&");
    const reference = (href: string) => {
      const hashAt = href.indexOf("#");
      const before = hashAt === -1 ? href : href.slice(0, hashAt);
      let fragment = hashAt === -1 ? null : href.slice(hashAt + 1);
      const queryAt = before.indexOf("?");
      const query = queryAt === -1 ? null : filter(before.slice(queryAt + 1));
      if (fragment?.includes("=")) fragment = filter(fragment);
      let out = queryAt === -1 ? before : before.slice(0, queryAt);
      if (query) out += `?${query}`;
      if (fragment) out += `#${fragment}`;
      return out;
    };
    let kept = 0;
    let changed = 0;
    let distinct = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            "?",
            "#",
            "&",
            "=",
            "a",
            "ref",
            "utm_x",
            "%75tm_y",
            "r+f",
            "%E0",
            "utm_",
            "x=1",
            `utm_${"l".repeat(70)}`,
          ),
          {
            maxLength: 14,
          },
        ),
        fc.nat(5000),
        (parts, n) => {
          const href = `https://a.test/p${parts.join("")}${n % 3 === 0 ? `&utm_${n}=1&k${n}=2` : ""}`;
          if (n % 3 === 0) distinct++;
          const got = runClearUrls(href, [provider], [0]).href;
          assert.equal(got, reference(href), href);
          if (got === href) kept++;
          else changed++;
        },
      ),
      { seed: 20261204, numRuns: 4000 },
    );
    assert.ok(
      kept > 500 && changed > 500 && distinct > 1024,
      `kept ${kept}, changed ${changed}, distinct ${distinct}`,
    );
    // Memory stays bounded whatever names come: at most 1,024 remembered, none longer than 64.
    const remembered = rememberedVerdicts(params);
    assert.ok(remembered > 0 && remembered <= 1024, `${remembered} names remembered`);
    const longNames = Array.from({ length: 3000 }, (_, i) => `${"n".repeat(80)}${i}=1`).join("&");
    runClearUrls(`https://a.test/?${longNames}`, [provider], [0]);
    assert.equal(rememberedVerdicts(params), remembered, "long names are not remembered");
  });

  it("lists providers that do not compile, and rejects data that is no provider list", () => {
    const pack = compileClearUrls({
      providers: {
        good: { urlPattern: HOST("good.test"), rules: ["x"] },
        badPattern: { urlPattern: "(" },
        badRule: { urlPattern: HOST("bad.test"), rules: ["[z-a]"] },
        notObject: 3,
      },
    });
    assert.equal(pack.providers, 4);
    assert.equal(pack.compiled, 1);
    assert.deepEqual(
      pack.skipped.map((s) => s.provider),
      ["badPattern", "badRule", "notObject"],
    );
    assert.match(pack.skipped[1]?.reason ?? "", /rules\[0\].*does not compile/);
    assert.throws(() => compileClearUrls([]), { code: "invalid-rule" });
    assert.throws(() => compileClearUrls({ providers: [] }), { code: "invalid-rule" });
    assert.throws(() => compileClearUrls(data, { strict: true } as never), {
      name: "TypeError",
      message: /strict/,
    });
    assert.throws(() => compileClearUrls(data, { maxUrlLength: 0 }), {
      name: "TypeError",
      message: /maxUrlLength/,
    });
  });
});
