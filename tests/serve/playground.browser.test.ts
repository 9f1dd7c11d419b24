// The playground in real Chromium (Debian's, driven by playwright-core): the page is loaded from the
// built binary's service on port 0, typed into like a person would, and read back from the DOM. The
// service resolves only `.test` names pinned to an origin this test starts on 127.0.0.1, and every
// request the browser makes is intercepted: one to anywhere but the service fails the test.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { classify } from "../../src/classify/classify.js";
import { explain, normalize } from "../../src/pipeline/normalize.js";
import { formWarnings } from "../../src/serve/playground/warnings.js";
import { startServe } from "../../src/serve/start-serve.js";
import { launchChromium, type TestBrowser } from "../helpers/chromium.js";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { fromRoot } from "../helpers/paths.js";
import { type ServedBinary, startServeBinary } from "../helpers/serve-binary.js";

/** Where the screenshots go: the test output, not the source tree. */
const OUTPUT = fromRoot("build/test-output");

const YOUTUBE = "HTTP://WWW.YouTube.com/watch?v=dQw4w9WgXcQ&utm_source=mail&t=30#top";

/** One hostile form per warning the page must raise, with the warning it must raise. */
const HOSTILE: readonly (readonly [string, string])[] = [
  ["https://bank.example@evil.test/login", "userinfo"],
  ["http:evil.test/x", "hidden-host"],
  ["https:\\\\evil.test\\p", "backslash"],
  ["https://ex\tample.test/", "tab-or-newline"],
  ["https://\u0430pple.test/", "non-ascii-host"],
];

/** Waits until the first `selector` reads `expected` (exactly, for a string). */
async function waitForText(page: Page, selector: string, expected: RegExp | string): Promise<string> {
  const matches = (text: string) => (typeof expected === "string" ? text === expected : expected.test(text));
  const locator = page.locator(selector).first();
  await locator.waitFor();
  // Generous: on a loaded two-core machine a render can take seconds; a pass returns at once.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const text = (await locator.textContent()) ?? "";
    if (matches(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${selector} never read ${String(expected)}: ${await locator.textContent()}`);
}

describe("the playground in Chromium", { timeout: 120_000 }, () => {
  let origin: LocalServer;
  let served: ServedBinary;
  let browser: TestBrowser;
  /** Every URL the browser asked for, in order. */
  const requested: string[] = [];
  /** Those not for the service: aborted, and the reason the test fails. */
  const foreign: string[] = [];

  before(async () => {
    origin = await startLocalServer({
      handler: (request, response) => {
        const path = request.url ?? "/";
        if (path.startsWith("/go")) {
          response.writeHead(301, { location: `http://shop.test:${origin.port}/item?id=7&utm_medium=email` });
          response.end();
        } else if (path.startsWith("/item")) {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          response.end("<!doctype html><head><title>item 7</title></head><body>item</body>");
        } else {
          response.writeHead(404).end();
        }
      },
    });
    served = await startServeBinary([
      "--allow-resolve",
      "--no-cache",
      "--resolve",
      "short.test:127.0.0.1",
      "--resolve",
      "shop.test:127.0.0.1",
      "--allow-network",
      "127.0.0.1/32",
      "--allowed-port",
      String(origin.port),
    ]);
    browser = await launchChromium();
    // Interception at the context covers every page, script, stylesheet and fetch of the test.
    await browser.context.route("**/*", (route) => {
      const url = route.request().url();
      requested.push(url);
      if (new URL(url).origin === served.url) return route.continue();
      foreign.push(url);
      return route.abort("blockedbyclient");
    });
    mkdirSync(OUTPUT, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    served?.child.kill("SIGTERM");
    await served?.exited;
    await origin?.close();
  });

  async function openPage(fragment = ""): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(`${served.url}/${fragment}`);
    await waitForText(page, "#service", /resolve: enabled/);
    return page;
  }

  it("renders the canonical form, every stage with its change highlighted, the rule and the params stripped", async () => {
    const page = await openPage();
    await page.locator("#urls").pressSequentially(YOUTUBE);
    const card = page.locator("article.result").first();
    const expected = explain(YOUTUBE);
    // Typing renders as it goes (debounced): wait for the card of the whole line.
    await waitForText(page, "article.result h2.input", YOUTUBE);
    assert.equal(await card.locator("output.canonical").textContent(), expected.canonical);
    assert.equal(expected.canonical, "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    assert.equal(await card.locator(".rule").textContent(), "youtube-v3");
    assert.deepEqual(await card.locator(".stripped li").allTextContents(), ["utm_source", "t"]);

    const rows = card.locator("tr.stage");
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-stage"))), [
      "input",
      "parse",
      "generic",
      "rule",
      "final",
    ]);
    // Each row's cell reads as its stage's URL without the removed marks, and as the stage
    // before's URL without the added ones: the marks are exactly the change.
    const cells = card.locator("tr.stage td");
    const readWithout = (tag: string) =>
      cells.evaluateAll((tds, drop) => {
        return tds.map((td) => {
          const copy = td.cloneNode(true) as typeof td;
          for (const mark of copy.querySelectorAll(drop)) mark.remove();
          return copy.textContent;
        });
      }, tag);
    const urls = [YOUTUBE, ...expected.steps.map((step) => step.url)];
    assert.deepEqual(await readWithout("del"), urls);
    assert.deepEqual((await readWithout("ins")).slice(1), urls.slice(0, -1));
    // The generic pass drops the tracking parameter and the fragment: both marked as removed.
    const generic = card.locator('tr[data-stage="generic"]');
    assert.equal(await generic.getAttribute("class"), "stage changed");
    assert.match((await generic.locator("del").allTextContents()).join(""), /utm_source=mail/);
    // The rule's row names the rule and marks what it added (https, and nothing of t=30 left).
    const rule = card.locator('tr[data-stage="rule"]');
    assert.match((await rule.locator("th").textContent()) ?? "", /youtube-v3/);
    assert.match((await rule.locator("ins").allTextContents()).join(""), /s/);
    assert.match((await rule.locator("del").allTextContents()).join(""), /t=30/);
    // The final pass changes nothing here, and says so.
    assert.equal(await card.locator('tr[data-stage="final"]').getAttribute("class"), "stage unchanged");
    assert.equal(await card.locator('tr[data-stage="final"] ins, tr[data-stage="final"] del').count(), 0);

    assert.equal(await card.locator(".form-class").textContent(), "absolute");
    assert.equal(await card.locator(".warning").count(), 0, "a plain URL raises no warning");
    await page.screenshot({ path: join(OUTPUT, "playground-desktop.png"), fullPage: true });
    await page.close();
  });

  it("shows the classify facts with a warning for each hostile form", async () => {
    const page = await openPage();
    // fill(), not typing: a typed tab would move the focus instead of entering the text.
    await page.locator("#urls").fill(HOSTILE.map(([line]) => line).join("\n"));
    await page
      .locator("article.result")
      .nth(HOSTILE.length - 1)
      .waitFor();
    const cards = page.locator("article.result");
    assert.equal(await cards.count(), HOSTILE.length);
    for (const [i, [line, warning]] of HOSTILE.entries()) {
      const card = cards.nth(i);
      const shown = await card
        .locator(".warning")
        .evaluateAll((items) => items.map((li) => li.getAttribute("data-warning")));
      assert.ok(shown.includes(warning), `${JSON.stringify(line)} shows ${warning}: ${shown.join(",")}`);
      assert.deepEqual(
        shown,
        formWarnings(classify(line)).map((w) => w.id),
      );
      assert.equal(await card.locator(".form-class").textContent(), classify(line).class);
      assert.equal(await card.locator(".form-host").textContent(), classify(line).host);
    }
    await page.close();
  });

  it("keeps the input in the fragment: the permalink reopens the same state, preset included", async () => {
    const page = await openPage();
    const line = "https://youtu.be/dQw4w9WgXcQ?si=abc&t=30";
    await page.locator("#urls").pressSequentially(line);
    await waitForText(page, "article.result h2.input", line);
    await waitForText(page, "article.result output.canonical", normalize(line));
    await page.locator("#preset").selectOption("rfc3986");
    const rfc = normalize(line, { preset: "rfc3986" });
    assert.notEqual(rfc, normalize(line), "the presets disagree on this input, so the preset is observable");
    await waitForText(page, "article.result output.canonical", rfc);

    const link = (await page.locator("#permalink").getAttribute("href")) ?? "";
    assert.ok(link.startsWith("#"), `permalink is a fragment: ${link}`);
    assert.equal(new URL(page.url()).hash, link);
    const params = new URLSearchParams(link.slice(1));
    assert.equal(params.get("u"), line);
    assert.equal(params.get("p"), "rfc3986");

    const again = await openPage(link);
    assert.equal(await again.locator("#urls").inputValue(), line);
    assert.equal(await again.locator("#preset").inputValue(), "rfc3986");
    await waitForText(again, "article.result output.canonical", rfc);
    // The fragment never reaches the service: it asked for "/" only.
    assert.ok(
      requested.every((url) => !url.includes("youtu")),
      "no request carried the input",
    );
    await page.close();
    await again.close();
  });

  it("resolve calls the service, which follows the local origin's redirect, and draws the hop chain", async () => {
    const page = await openPage();
    const input = `http://short.test:${origin.port}/go?utm_source=mail`;
    const before = origin.paths.length;
    await page.locator("#urls").pressSequentially(input);
    const button = page.locator("article.result button.resolve");
    // Clicking before the last debounced render would lose the chain with the card it replaced.
    await waitForText(page, "article.result h2.input", input);
    assert.equal(await button.isEnabled(), true);
    await button.click();
    await page.locator("article.result .hops").waitFor();
    const hops = page.locator("article.result .hop");
    const vias = await hops.evaluateAll((items) => items.map((li) => li.getAttribute("data-via")));
    assert.equal(vias[0], "initial");
    assert.ok(vias.includes("redirect"), `a redirect hop: ${vias.join(",")}`);
    assert.equal(await hops.first().locator(".hop-status").textContent(), "301");
    assert.equal(await hops.first().locator(".hop-url").textContent(), input);
    const last = hops.nth(vias.indexOf("redirect"));
    assert.equal(await last.locator(".hop-status").textContent(), "200");
    assert.match((await last.locator(".hop-url").textContent()) ?? "", /^http:\/\/shop\.test:\d+\/item\?/);
    assert.equal(
      await page.locator("article.result .resolved-url").textContent(),
      normalize(`http://shop.test:${origin.port}/item?id=7`),
    );
    // The origin really was asked, for both hops.
    const seen = origin.paths.slice(before);
    assert.ok(seen.some((path) => path.startsWith("/go")) && seen.some((path) => path.startsWith("/item")));
    await page.screenshot({ path: join(OUTPUT, "playground-resolved.png"), fullPage: true });
    await page.close();
  });

  it("many links: pasted links grouped by key show what was united and what stayed apart", async () => {
    const links = [
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/results?search_query=lofi",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share",
      "https://www.youtube.com/results?search_query=jazz",
      "ftp://not-http.test/",
      "https://example.com/a?utm_source=x",
      "https://example.com/a",
    ];
    const page = await openPage();
    await page.locator("#view").selectOption("groups");
    await page.locator("#urls").fill(links.join("\n"));
    await waitForText(page, ".group-summary", /^7 links → 4 keys; 2 keys unite several links$/);
    const groups = page.locator("article.group");
    // First-seen order, the same keys normalize() gives: the two searches stay apart.
    assert.deepEqual(await groups.locator(".group-key output").allTextContents(), [
      normalize(links[0] as string),
      normalize(links[1] as string),
      normalize(links[3] as string),
      normalize(links[5] as string),
    ]);
    assert.deepEqual(await groups.evaluateAll((a) => a.map((g) => g.getAttribute("data-count"))), [
      "2",
      "1",
      "1",
      "2",
    ]);
    assert.deepEqual(await groups.first().locator("li").allTextContents(), [links[0], links[2]]);
    assert.match((await page.locator(".group.failed").textContent()) ?? "", /ftp:\/\/not-http\.test\//);
    // The view is part of the permalink: reopening it shows the groups again.
    const reopened = await openPage(new URL(page.url()).hash);
    await waitForText(reopened, ".group-summary", /^7 links → 4 keys/);
    assert.equal(await reopened.locator("#view").inputValue(), "groups");
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, "playground-groups.png"), fullPage: true });
    await page.close();
    await reopened.close();
  });

  it("fits a phone-sized viewport: nothing scrolls sideways, the controls stay on screen", async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 375, height: 740 });
    const fragment = `#u=${encodeURIComponent([YOUTUBE, HOSTILE[0]?.[0] ?? ""].join("\n"))}`;
    await page.goto(`${served.url}/${fragment}`);
    await waitForText(page, "#service", /resolve: enabled/);
    await page.locator("article.result").nth(1).waitFor();
    const widths = (await page.evaluate(
      "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
    )) as [number, number];
    assert.ok(widths[0] <= widths[1], `page width ${widths[0]} fits the viewport ${widths[1]}`);
    for (const selector of ["#urls", "#preset", "article.result button.resolve", "article.result .stages"]) {
      const box = await page.locator(selector).first().boundingBox();
      assert.ok(box !== null, `${selector} is shown`);
      assert.ok(box.x >= 0 && box.x + box.width <= 375, `${selector} within 375px: ${JSON.stringify(box)}`);
    }
    await page.screenshot({ path: join(OUTPUT, "playground-phone.png"), fullPage: true });
    await page.close();
  });

  it("without --allow-resolve the page says so and the button is off; with the service gone it still normalizes", async () => {
    const plain = await startServe({ port: 0, assetsDir: fromRoot("dist/serve/playground") });
    const page = await browser.context.newPage();
    try {
      // This service is the one origin the page may talk to here.
      await page.route("**/*", (route) =>
        new URL(route.request().url()).origin === plain.url ? route.continue() : route.abort(),
      );
      await page.goto(`${plain.url}/#u=${encodeURIComponent("http://short.test/go")}`);
      await waitForText(page, "#service", /resolve: off/);
      await page.locator("article.result button.resolve").waitFor();
      assert.equal(await page.locator("article.result button.resolve").isDisabled(), true);
      assert.equal(await page.locator("#token").isHidden(), true);
      assert.equal(
        await page.locator("article.result output.canonical").textContent(),
        "http://short.test/go",
      );

      // The service goes away; the page, which normalizes by itself, goes on answering.
      await plain.drain(1000);
      await page.locator("#urls").fill(YOUTUBE);
      await waitForText(page, "article.result h2.input", YOUTUBE);
      const offline = explain(YOUTUBE);
      assert.equal(await page.locator("article.result output.canonical").textContent(), offline.canonical);
      assert.equal(await page.locator("article.result .rule").textContent(), offline.ruleApplied);
    } finally {
      await page.close();
      await plain.drain(1000);
    }
  });

  it("the browser asked the service only: no external script, font, stylesheet or API", () => {
    assert.deepEqual(foreign, []);
    const paths = new Set(requested.map((url) => new URL(url).pathname));
    for (const path of ["/", "/playground.js", "/playground.css", "/v1/capabilities", "/v1/resolve"]) {
      assert.ok(paths.has(path), `the test saw the page ask for ${path}`);
    }
  });
});
