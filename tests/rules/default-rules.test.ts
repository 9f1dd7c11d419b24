import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { isRuleError } from "../../src/errors/index.js";
import {
  createDefaultRules,
  createRuleMatcher,
  type DomainRule,
  defaultRules,
  loadRules,
  normalize,
  shorteners,
} from "../../src/index.js";
import { DeclaredRule } from "../../src/rules/declared-rule.js";
import { readShorteners } from "../../src/rules/shorteners.js";
import { fromRoot } from "../helpers/paths.js";

const declared = (rules: readonly DomainRule[]): DeclaredRule[] =>
  rules.map((r) => {
    assert.ok(r instanceof DeclaredRule, `${r.name} is declarative`);
    return r;
  });

describe("defaultRules", () => {
  it("are the documented rules, versioned, in first-match order", () => {
    assert.deepEqual(
      defaultRules.map((r) => r.name),
      [
        "google-amp-v2",
        "google-url-v2",
        "google-search-v1",
        "facebook-link-v1",
        "wayback-v1",
        "ampproject-cache-v1",
        "outlook-safelinks-v1",
        "urldefense-v1",
        "linkedin-redirect-v1",
        "slack-redir-v1",
        "steam-linkfilter-v1",
        "vk-away-v1",
        "reddit-out-v1",
        "instagram-link-v1",
        "duckduckgo-link-v1",
        "tumblr-redirect-v1",
        "youtube-redirect-v1",
        "youtube-v3",
        "youtube-music-v2",
        "amazon-v3",
        "twitter-v3",
        "instagram-v2",
        "reddit-v3",
        "linkedin-v2",
        "github-v4",
        "google-sheets-v1",
        "code-hosts-v1",
        "tiktok-v2",
        "medium-v2",
        "hackernews-v2",
      ],
    );
    assert.ok(Object.isFrozen(defaultRules));
  });

  it("come from data/domain-rules.yaml, which says where its facts come from", () => {
    const text = readFileSync(fromRoot("data", "domain-rules.yaml"), "utf8");
    assert.match(text, /link-canonical technical specification v1,\s*\n?#?\s*§16.*taken 2026-12-02/s);
    const again = loadRules(text);
    assert.deepEqual(
      again.map((r) => r.name),
      defaultRules.map((r) => r.name),
    );
  });

  it("every rewriting rule claims its own output on every one of its hosts", () => {
    // Otherwise the pipeline would take the output for an unwrapped link, and a second run would differ.
    for (const rule of declared(defaultRules)) {
      // An exemption-only rule never matches by design (it must not hide a later rule).
      if (rule.declaration.unwrap !== undefined || rule.exemptOnly) continue;
      const declared = rule.declaration.mirrorHosts;
      const mirrors = declared === true ? rule.declaration.domains : declared;
      for (const host of rule.hosts.exact) {
        const input = new URL(`http://${host}/some/path?x=1`);
        const out = rule.apply(input);
        assert.ok(out instanceof URL, `${rule.name} rewrites in place`);
        if ((rule.declaration.pathPatterns ?? []).length > 0 && !(mirrors ?? []).includes(host)) {
          // Issue 22: a path the rule does not declare, on a host that is no mirror: untouched.
          assert.equal(out, input, `${rule.name}: ${host}/some/path is not claimed`);
          assert.equal(rule.match(input), false);
          continue;
        }
        assert.ok(rule.match(out), `${rule.name}: ${host} → ${out.href} is still claimed`);
        assert.ok(out.search === "?x=1", `${rule.name}: an unknown path keeps its parameters`);
        if (rule.declaration.canonicalScheme === "https") assert.equal(out.protocol, "https:");
      }
    }
  });

  it("every canonical path is a fixed point of its rule, with or without a trailing slash", () => {
    let checked = 0;
    for (const rule of declared(defaultRules)) {
      const host = [...rule.hosts.exact][0] as string;
      for (const p of rule.declaration.pathPatterns ?? []) {
        let i = 0;
        // A constrained capture ({asin:[A-Z0-9]{10}}) gets the class's first character, as often as
        // its count asks; a plain one gets a distinct word.
        const sample = p.match
          .replace(/\/\{\w+\*\}$/, "")
          .replace(/\{\w+(?::\[(.)[^\]]*\](?:\{(\d+)[^}]*\})?)?\}/g, (_m, first?: string, count?: string) =>
            first === undefined ? `x${i++}` : first.repeat(Number(count ?? 1)),
          );
        const onHost = p.hosts?.[0] ?? host;
        const once = rule.apply(new URL(`https://${onHost}${sample}`)) as URL;
        for (const path of [
          once.pathname,
          once.pathname.endsWith("/") ? once.pathname.slice(0, -1) : `${once.pathname}/`,
        ]) {
          const again = rule.apply(new URL(`${once.origin}${path}${once.search}`)) as URL;
          assert.equal(again.href, once.href, `${rule.name} ${p.match}: ${path}`);
        }
        checked++;
      }
    }
    assert.ok(checked >= 20, `${checked} patterns checked`);
  });

  it("claim no shortener host: those need the network", () => {
    const find = createRuleMatcher(defaultRules);
    for (const host of shorteners) assert.equal(find(new URL(`https://${host}/abc`)), undefined, host);
  });

  it("only GitHub (#L10) and Google Sheets (#gid=) keep a fragment", () => {
    const keeping = defaultRules.filter((r) => r.keepFragment !== undefined).map((r) => r.name);
    assert.deepEqual(keeping, ["github-v4", "google-sheets-v1"]);
  });
});

describe("createDefaultRules", () => {
  it("returns defaultRules itself for the defaults", () => {
    assert.equal(createDefaultRules(), defaultRules);
    assert.equal(createDefaultRules({}), defaultRules);
    assert.equal(createDefaultRules({ amazonHost: "regional" }), defaultRules);
  });

  it('amazonHost: "com" swaps only the Amazon rule, under its own name', () => {
    const com = createDefaultRules({ amazonHost: "com" });
    assert.equal(createDefaultRules({ amazonHost: "com" }), com, "built once");
    assert.deepEqual(
      com.map((r) => r.name),
      defaultRules.map((r) => (r.name === "amazon-v3" ? "amazon-com-v3" : r.name)),
    );
    assert.equal(
      normalize("https://amazon.de/dp/B07PHPXHQS", { rules: [...com] }),
      "https://www.amazon.com/dp/B07PHPXHQS",
    );
    assert.equal(normalize("https://amazon.de/dp/B07PHPXHQS"), "https://www.amazon.de/dp/B07PHPXHQS");
  });

  it("rejects unknown options and values with TypeError", () => {
    assert.throws(() => createDefaultRules({ amazon: "com" } as never), /unknown option "amazon"/);
    assert.throws(() => createDefaultRules({ amazonHost: "de" } as never), /amazonHost must be/);
    assert.throws(() => createDefaultRules(null as never), TypeError);
  });
});

describe("shorteners", () => {
  it("lists the issue's hosts, youtu.be and redd.it not among them", () => {
    assert.deepEqual([...shorteners].sort(), [
      "amzn.to",
      "bit.ly",
      "buff.ly",
      "goo.gl",
      "is.gd",
      "ow.ly",
      "t.co",
      "tinyurl.com",
    ]);
    assert.ok(!shorteners.includes("youtu.be"));
    assert.ok(!shorteners.includes("redd.it"), "reddit-v3 reads redd.it/{id} offline");
    assert.ok(Object.isFrozen(shorteners));
  });

  it("its data file goes through a validator that names the bad entry", () => {
    assert.throws(
      () => readShorteners({ hosts: ["ok.example", "Bad.Host", 3] }),
      (e: unknown) => isRuleError(e) && e.problems.map((p) => p.path).join() === "hosts[1],hosts[2]",
    );
    assert.throws(
      () => readShorteners(["bit.ly"]),
      (e: unknown) => isRuleError(e) && e.problems[0]?.path === "hosts",
    );
  });
});
