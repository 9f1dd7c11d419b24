import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clearUrlsLayer, compileClearUrls, explain, normalize, type TrackingLayer } from "../../src/index.js";

// Issue 22, item 6: a tracking layer removes its parameters after the domain rule that claimed the
// URL instead of competing for it; no order of layers can make a valid link throw.
const matomo: TrackingLayer = {
  name: "matomo",
  inspect: () => ({ remove: (name) => name.startsWith("pk_") || name.startsWith("mtm_") }),
};
const throwing: TrackingLayer = {
  name: "throws",
  inspect: () => {
    throw new Error("boom");
  },
};
const selfWrap: TrackingLayer = { name: "self", inspect: (href) => ({ unwrap: href }) };
const relative: TrackingLayer = { name: "relative", inspect: () => ({ unwrap: "www.example.com/x" }) };
// A → B → A …: two hosts that unwrap into each other, forever.
const pingPong: TrackingLayer = {
  name: "ping-pong",
  inspect: (href) =>
    href.includes("ping.test")
      ? { unwrap: "https://pong.test/x" }
      : href.includes("pong.test")
        ? { unwrap: "https://ping.test/x" }
        : undefined,
};

const links = [
  "https://www.google.com/amp/s/www.bbc.co.uk/news/uk-123.amp",
  "https://www.google.com/url?q=https%3A%2F%2Fexample.com%2Fa&sa=D",
  // crid is host-scoped tracking on Amazon (issue 22 part 2); dchild and refRID are the pack's alone.
  "https://www.amazon.co.uk/s?k=kettle&dchild=1&refRID=ABC&crid=2M",
  "https://youtu.be/dQw4w9WgXcQ?si=x",
  "https://ping.test/x?pk_campaign=1",
  "https://shop.example/a?pk_campaign=x&id=2#/route",
];

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe("tracking layers", () => {
  it("the ClearURLs layer cleans a URL a built-in rule claimed (the rules form could not)", () => {
    const e = explain(links[2] as string, { trackingLayers: [clearUrlsLayer()] });
    assert.equal(e.ruleApplied, "amazon-v3");
    assert.equal(e.canonical, "https://www.amazon.co.uk/s?k=kettle");
    assert.deepEqual(e.paramsStripped, ["dchild", "refRID", "crid"]);
    const layerSteps = e.steps.filter((s) => s.stage === "layer");
    assert.deepEqual(
      layerSteps.map((s) => s.rule),
      ["clearurls"],
    );
    assert.equal(e.steps.at(-1)?.stage, "final");
    assert.equal(e.steps.at(-1)?.url, e.canonical);
  });

  it("a Google AMP link, with the layer in any position, normalizes (it threw as a rule first)", () => {
    for (const order of permutations([clearUrlsLayer(), matomo, throwing]))
      assert.equal(
        normalize(links[0] as string, { trackingLayers: order }),
        "https://www.bbc.co.uk/news/uk-123.amp",
      );
  });

  it("no order of layers throws on a valid link, and every result is a fixed point", () => {
    const all = [clearUrlsLayer(), matomo, throwing, selfWrap, relative, pingPong];
    let runs = 0;
    for (const order of permutations(all))
      for (const link of links) {
        const once = normalize(link, { trackingLayers: order });
        assert.equal(
          normalize(once, { trackingLayers: order }),
          once,
          `${link} with ${order.map((l) => l.name)}`,
        );
        runs++;
      }
    assert.equal(runs, 720 * links.length);
  });

  it("a user's layer removes its names after the rule; keepParams outrank it", () => {
    assert.equal(
      normalize("https://shop.example/a?pk_campaign=x&id=2", { trackingLayers: [matomo] }),
      "https://shop.example/a?id=2",
    );
    assert.equal(
      normalize("https://www.youtube.com/watch?v=x&pk_source=1", { trackingLayers: [matomo] }),
      "https://www.youtube.com/watch?v=x",
    );
    assert.equal(
      normalize("https://shop.example/a?pk_campaign=x", {
        trackingLayers: [matomo],
        keepParams: ["pk_campaign"],
      }),
      "https://shop.example/a?pk_campaign=x",
    );
    // A route fragment survives a layer's edit of the query.
    assert.equal(
      normalize(links[5] as string, { trackingLayers: [matomo] }),
      "https://shop.example/a?id=2#/route",
    );
  });

  it("a layer never claims a URL: ruleApplied stays the rule's (or null)", () => {
    assert.equal(
      explain("https://shop.example/a?pk_campaign=x", { trackingLayers: [matomo] }).ruleApplied,
      null,
    );
    const pack = compileClearUrls({ providers: { g: { urlPattern: ".*", rules: ["zz"] } } });
    assert.equal(
      explain("https://www.youtube.com/watch?v=x&zz=1", { trackingLayers: [pack.layer] }).ruleApplied,
      "youtube-v3",
    );
  });

  it("refuses what is not a layer list, naming the option", () => {
    assert.throws(
      () => normalize("https://a.test/", { trackingLayers: [{ name: "x" } as never] }),
      /"trackingLayers"/,
    );
    assert.throws(
      () => normalize("https://a.test/", { trackingLayers: "clearurls" as never }),
      /"trackingLayers"/,
    );
  });
});
