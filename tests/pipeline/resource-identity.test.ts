import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parse } from "yaml";
import {
  contextualTrackingParams,
  type DomainRule,
  defaultRules,
  defaultTrackingParams,
  explain,
  hostScopedTrackingParams,
  type NormalizeOptions,
  normalize,
} from "../../src/index.js";
import { compileRules } from "../../src/rules/load-rules.js";
import { fromRoot } from "../helpers/paths.js";

// Issue 14: identity never merges two resources or splits one. Every block starts with the
// counterexample the issue gave, which failed before this change.

describe("credentials never reach a key (stripUserinfo)", () => {
  it("the identity preset drops user:password@", () => {
    assert.equal(normalize("http://user:pass@example.com/x"), "http://example.com/x");
    assert.equal(normalize("http://user@example.com/x"), "http://example.com/x");
    const e = explain("https://u:secret@youtu.be/dQw4w9WgXcQ");
    assert.equal(e.canonical, "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    for (const step of e.steps.slice(1))
      assert.ok(!step.url.includes("secret"), `${step.stage}: ${step.url}`);
  });

  it("rfc3986 keeps them (url_canonicalize's table), and the option says either way", () => {
    assert.equal(
      normalize("http://user:pass@example.com/x", { preset: "rfc3986" }),
      "http://user:pass@example.com/x",
    );
    assert.equal(
      normalize("http://user:pass@example.com/x", { stripUserinfo: false }),
      "http://user:pass@example.com/x",
    );
    assert.equal(
      normalize("http://user:pass@example.com/x", { preset: "rfc3986", stripUserinfo: true }),
      "http://example.com/x",
    );
    assert.throws(() => normalize("http://a.test/", { stripUserinfo: "yes" as never }), /"stripUserinfo"/);
  });

  it("two credentials on one resource are one key", () => {
    assert.equal(normalize("http://alice:1@example.com/a"), normalize("http://bob:2@example.com/a"));
  });
});

describe("names that name the resource somewhere are kept (exemptParams, the host tier)", () => {
  it("GitLab's ?ref=v1 and ?ref=v2 stay two keys; since issue 22 ref is kept on every host", () => {
    const v1 = normalize("https://gitlab.com/group/project/-/raw/main/file.txt?ref=v1");
    const v2 = normalize("https://gitlab.com/group/project/-/raw/main/file.txt?ref=v2");
    assert.notEqual(v1, v2);
    assert.equal(v1, "https://gitlab.com/group/project/-/raw/main/file.txt?ref=v1");
    // A self-hosted forge no rule lists: ref selects the content there too (issue 22).
    assert.equal(normalize("https://git.example.com/a?ref=v1"), "https://git.example.com/a?ref=v1");
    assert.ok(!defaultTrackingParams.includes("ref") && !defaultTrackingParams.includes("source"));
    assert.ok(!defaultTrackingParams.includes("si") && contextualTrackingParams.includes("si"));
  });

  it("an exemption-only rule does not stop a later rule (first-match ignores it)", () => {
    const rules = compileRules([
      { name: "exempt-v1", domains: ["forge.test"], exemptParams: ["ref"] },
      { name: "forge-v1", domains: ["forge.test"], canonicalScheme: "https" },
    ]);
    const e = explain("http://forge.test/x?ref=v1&utm_source=a", { rules });
    assert.equal(e.canonical, "https://forge.test/x?ref=v1");
    assert.equal(e.ruleApplied, "forge-v1");
    assert.deepEqual(e.paramsStripped, ["utm_source"]);
    // Alone it rewrites nothing and is never reported.
    const alone = explain("http://forge.test/x?ref=v1", { rules: [rules[0] as DomainRule] });
    assert.equal(alone.ruleApplied, null);
    assert.equal(alone.canonical, "http://forge.test/x?ref=v1");
  });

  it("exemptions are host facts: a rule that loses first-match still lends them, and they add up", () => {
    const rules = compileRules([
      { name: "first-v1", domains: ["forge.test"], canonicalScheme: "https" },
      { name: "second-v1", domains: ["forge.test"], exemptParams: ["ref"], canonicalScheme: "http" },
      { name: "third-v1", domains: ["*.forge.test"], exemptParams: ["source"] },
    ]);
    const extraTrackingParams = ["ref", "source", "si"];
    const e = explain("http://forge.test/x?ref=1&source=2&si=3", { rules, extraTrackingParams });
    assert.equal(e.ruleApplied, "first-v1");
    assert.equal(e.canonical, "https://forge.test/x?ref=1");
    assert.equal(
      normalize("http://a.forge.test/x?ref=1&source=2&si=3", { rules, extraTrackingParams }),
      "http://a.forge.test/x?source=2",
    );
  });

  it("the output host decides the final pass, so a rule that moves the host stays idempotent", () => {
    const rules = compileRules([
      { name: "move-v1", domains: ["old.test"], canonicalHost: "new.test" },
      { name: "exempt-v1", domains: ["old.test"], exemptParams: ["ref"] },
    ]);
    const once = normalize("http://old.test/a?ref=1", { rules, extraTrackingParams: ["ref"] });
    assert.equal(once, "http://new.test/a");
    assert.equal(normalize(once, { rules, extraTrackingParams: ["ref"] }), once);
  });

  it("holds with the caller's own tracking list and keepParams", () => {
    const opts = { trackingParams: ["ref", "x"], keepParams: ["x"] } as const;
    assert.equal(normalize("https://gitlab.com/a?ref=1&x=2", opts), "https://gitlab.com/a?ref=1&x=2");
    assert.equal(normalize("https://example.com/a?ref=1&x=2", opts), "https://example.com/a?x=2");
  });

  it("refuses a name that is both exempt and stripped, and patterns", () => {
    assert.throws(
      () =>
        compileRules([{ name: "a-v1", domains: ["a.test"], stripParams: ["re*"], exemptParams: ["ref"] }]),
      /both exempt and stripped/,
    );
    assert.throws(
      () => compileRules([{ name: "a-v1", domains: ["a.test"], exemptParams: ["utm_*"] }]),
      /exact names/,
    );
    assert.throws(
      () => compileRules([{ name: "a-v1", domains: ["a.test"], exemptParams: [] }]),
      /must not be empty/,
    );
  });
});

describe("the tracking list (data/tracking-params.yaml)", () => {
  const data = parse(readFileSync(fromRoot("data", "tracking-params.yaml"), "utf8")) as Record<
    string,
    { name: string; what: string; source: string }[]
  >;

  it("strips the common trackers that survived before", () => {
    const names = [
      "gbraid",
      "wbraid",
      "srsltid",
      "mkt_tok",
      "_hsenc",
      "_hsmi",
      "yclid",
      "ttclid",
      "twclid",
      "li_fat_id",
    ];
    const query = names.map((n, i) => `${n}=${i}`).join("&");
    const e = explain(`https://example.com/p?${query}&page=2`);
    assert.equal(e.canonical, "https://example.com/p?page=2");
    assert.deepEqual(e.paramsStripped, names);
  });

  it("has two tiers, every entry with what it is and a source", () => {
    const global = data.everywhere ?? [];
    const scoped = (data.hostScoped ?? []) as {
      name: string;
      what: string;
      source: string;
      hosts: string[];
    }[];
    assert.ok(global.length >= 40, "global tier");
    assert.ok(scoped.length >= 5, "host-scoped tier");
    for (const entry of [...global, ...scoped]) {
      assert.ok(entry.what.length > 5, `${entry.name}: what`);
      assert.match(entry.source, /^(https:\/\/|link-canonical spec v1 §(9|16))/, `${entry.name}: source`);
    }
    for (const entry of scoped) assert.ok(entry.hosts.length > 0, `${entry.name}: hosts`);
    // Plain words are content somewhere: they are never in the global tier (issue 22).
    for (const word of ["ref", "source", "si", "s", "t", "feature", "tab", "cmp"])
      assert.ok(!global.some((e) => e.name.toLowerCase() === word), `${word} is not global`);
    assert.deepEqual(
      global.map((e) => e.name),
      [...defaultTrackingParams],
      "the exported list is the global tier, in order",
    );
    assert.deepEqual(
      scoped.map((e) => ({ name: e.name, hosts: e.hosts })),
      hostScopedTrackingParams.map((e) => ({ name: e.name, hosts: [...e.hosts] })),
    );
  });
});

describe("tracking options", () => {
  it("extraTrackingParams adds to the built-in list (or to the caller's)", () => {
    assert.equal(
      normalize("https://example.com/?sid=1&a=2", { extraTrackingParams: ["sid"] }),
      "https://example.com/?a=2",
    );
    assert.equal(
      normalize("https://example.com/?gclid=1&a=2", { extraTrackingParams: ["sid"] }),
      "https://example.com/?a=2",
    );
    assert.equal(
      normalize("https://example.com/?gclid=1&sid=1&x=3", {
        trackingParams: ["x"],
        extraTrackingParams: ["sid"],
      }),
      "https://example.com/?gclid=1",
    );
    assert.equal(
      normalize("https://example.com/?mine_a=1&b=2", { extraTrackingParams: ["mine_*"] }),
      "https://example.com/?b=2",
    );
  });

  it("a pattern in keepParams is a TypeError, and so is a misplaced star", () => {
    assert.throws(() => normalize("https://a.test/", { keepParams: ["utm_*"] }), TypeError);
    assert.throws(() => normalize("https://a.test/", { keepParams: ["utm_*"] }), /"keepParams".*exact names/);
    assert.throws(() => normalize("https://a.test/", { trackingParams: ["a*b"] }), /only allowed at the end/);
    assert.throws(
      () => normalize("https://a.test/", { extraTrackingParams: ["*"] }),
      /"extraTrackingParams"/,
    );
    assert.throws(
      () => normalize("https://a.test/", { extraTrackingParams: "x" as never }),
      /"extraTrackingParams"/,
    );
  });

  it("accepts readonly arrays: defaultTrackingParams goes back in as it is", () => {
    const options: NormalizeOptions = { trackingParams: defaultTrackingParams, keepParams: ["ref"] as const };
    assert.equal(normalize("https://example.com/?ref=1&gclid=2", options), "https://example.com/?ref=1");
  });
});

describe("a user rule replaces the built-in of its family", () => {
  const mine = compileRules([
    {
      name: "amazon-v1",
      domains: ["amazon.de", "www.amazon.de"],
      canonicalHost: "www.amazon.de",
      canonicalScheme: "https",
    },
  ]);

  it("wherever it sits in the list, the built-in is gone entirely", () => {
    for (const rules of [
      [...mine, ...defaultRules],
      [...defaultRules, ...mine],
    ]) {
      const de = explain("https://amazon.de/Echo/dp/B07PHPXHQS", { rules });
      assert.equal(de.ruleApplied, "amazon-v1");
      assert.equal(de.canonical, "https://www.amazon.de/Echo/dp/B07PHPXHQS");
      // amazon.com is not mine: without the built-in no rule claims it.
      assert.equal(explain("https://amazon.com/Echo/dp/B07PHPXHQS", { rules }).ruleApplied, null);
      assert.equal(explain("https://youtu.be/dQw4w9WgXcQ", { rules }).ruleApplied, "youtube-v3");
    }
  });

  it("takes the replaced rule's exemptions with it", () => {
    const [gh] = compileRules([{ name: "github-v9", domains: ["github.com"] }]);
    assert.ok(gh);
    // ref is in no default tier since issue 22: the caller's list makes it tracking here.
    const extraTrackingParams = ["ref"];
    assert.equal(
      normalize("https://github.com/a/b?ref=main", { extraTrackingParams }),
      "https://github.com/a/b?ref=main",
    );
    assert.equal(
      normalize("https://github.com/a/b?ref=main", { rules: [gh, ...defaultRules], extraTrackingParams }),
      "https://github.com/a/b",
    );
  });

  it("a user rule of another family replaces nothing", () => {
    const [other] = compileRules([{ name: "amazonish-v1", domains: ["amazon.fr"] }]);
    assert.ok(other);
    const rules = [other, ...defaultRules];
    assert.equal(explain("https://amazon.fr/dp/B07PHPXHQS", { rules }).ruleApplied, "amazonish-v1");
    assert.equal(explain("https://amazon.de/dp/B07PHPXHQS", { rules }).ruleApplied, "amazon-v3");
  });
});
