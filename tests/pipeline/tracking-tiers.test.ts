import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explain, hostScopedTrackingParams, normalize } from "../../src/index.js";
import { hostTrackingNames } from "../../src/pipeline/host-tracking.js";

// Issue 22, item 2: the global tier holds only names that are tracking wherever they appear; share
// and campaign names are stripped only on their hosts.
describe("the host-scoped tracking tier", () => {
  it("strips si on YouTube and Spotify, on paths no rule knows, and keeps it elsewhere", () => {
    assert.equal(
      normalize("https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=abc123"),
      "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC",
    );
    assert.equal(
      normalize("https://music.youtube.com/channel/UC1?si=x&view=0"),
      "https://music.youtube.com/channel/UC1?view=0",
    );
    assert.equal(normalize("https://example.com/search?si=1&q=x"), "https://example.com/search?q=x&si=1");
  });

  it("strips igsh on Instagram only, source on Medium and its user subdomains only", () => {
    assert.equal(
      normalize("https://www.instagram.com/p/C1nNxSbsAzk/?igsh=ZDNlZDc0MzIxNw%3D%3D"),
      "https://www.instagram.com/p/C1nNxSbsAzk/",
    );
    assert.equal(normalize("https://example.com/a?igsh=1"), "https://example.com/a?igsh=1");
    assert.equal(
      normalize("https://someone.medium.com/a-post-1a2b3c4d5e6f?source=rss----1"),
      "https://someone.medium.com/a-post-1a2b3c4d5e6f",
    );
    // A diff's base revision on a review site is content (the merge).
    const a = normalize("https://review.example.org/c/123/2..3?source=1");
    const b = normalize("https://review.example.org/c/123/2..3?source=2");
    assert.notEqual(a, b);
  });

  it("a host covers its subdomains but not look-alikes", () => {
    assert.deepEqual(hostTrackingNames("m.youtube.com"), hostTrackingNames("youtube.com"));
    assert.equal(hostTrackingNames("notyoutube.com"), undefined);
    assert.equal(hostTrackingNames("youtube.com.evil.test"), undefined);
    assert.equal(normalize("https://notyoutube.com/a?si=1"), "https://notyoutube.com/a?si=1");
  });

  it("keepParams saves a host-tier name; explain lists what the tier removed", () => {
    assert.equal(
      normalize("https://open.spotify.com/track/1?si=a", { keepParams: ["si"] }),
      "https://open.spotify.com/track/1?si=a",
    );
    assert.deepEqual(explain("https://open.spotify.com/track/1?si=a&utm_source=x").paramsStripped, [
      "si",
      "utm_source",
    ]);
  });

  it("is off with stripTracking: false and in the rfc3986 preset", () => {
    assert.equal(
      normalize("https://open.spotify.com/track/1?si=a", { stripTracking: false }),
      "https://open.spotify.com/track/1?si=a",
    );
    assert.equal(
      normalize("https://open.spotify.com/track/1?si=a", { preset: "rfc3986" }),
      "https://open.spotify.com/track/1?si=a",
    );
  });

  it("every entry is listed with hosts, each a plain lowercase name", () => {
    assert.ok(hostScopedTrackingParams.length >= 5);
    for (const { name, hosts } of hostScopedTrackingParams) {
      assert.ok(hosts.length > 0, name);
      for (const h of hosts) assert.match(h, /^[a-z0-9-]+(\.[a-z0-9-]+)+$/, `${name}: ${h}`);
      for (const h of hosts) assert.ok(hostTrackingNames(h)?.includes(name), `${name} on ${h}`);
    }
  });
  it("issue 22 part 2: share and newsletter names go on their hosts only, prefixes included", () => {
    const cases: [string, string][] = [
      ["https://www.reddit.com/r/rust/?share_id=AbC&rdt=1", "https://www.reddit.com/r/rust/"],
      ["https://www.bbc.co.uk/news/uk-1?at_medium=RSS&at_campaign=x", "https://www.bbc.co.uk/news/uk-1"],
      [
        "https://www.nytimes.com/2024/a.html?smid=url-share&page=2",
        "https://www.nytimes.com/2024/a.html?page=2",
      ],
      ["https://example.substack.com/p/a?r=2abcd&s=r", "https://example.substack.com/p/a"],
      ["https://www.etsy.com/listing/1/a?ga_order=x&ref=share", "https://www.etsy.com/listing/1/a"],
    ];
    for (const [input, expected] of cases) assert.equal(normalize(input), expected, input);
    // The same names on a host the tier does not list are content and stay.
    for (const input of [
      "https://example.test/a?at_medium=RSS",
      "https://example.test/a?r=1",
      "https://example.test/a?share_id=1",
      "https://example.test/a?ga_order=x",
    ])
      assert.equal(normalize(input), input, input);
  });

  it("issue 22 part 2: email-platform and click ids go everywhere", () => {
    assert.equal(
      normalize(
        "https://shop.example.test/a?elqTrackId=1&vero_id=2&_bhlid=3&ck_subscriber_id=4&irclickid=5&ScCid=6&mtm_source=7&hsa_cam=8&__cft__%5B0%5D=9&mibextid=10&id=11",
      ),
      "https://shop.example.test/a?id=11",
    );
  });
});
