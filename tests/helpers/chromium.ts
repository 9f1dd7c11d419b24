import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { fromRoot } from "./paths.js";

/** Debian's Chromium, headless, with a fresh profile that is removed on close. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

// architecture.md: no background traffic of the browser's own (updates, sync, QUIC probes), so
// the only connections a test makes are the ones to its own loopback server.
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Provisions Chromium (scripts/provision-chromium.mjs: installs the Debian package when it can,
 * else throws with the command to run, which fails the test rather than skipping it) and launches
 * it headless with a throwaway profile. Never downloads a browser.
 *
 * @example
 * ```ts
 * const browser = await launchChromium();
 * const page = await browser.context.newPage();
 * ```
 */
export async function launchChromium(viewport = { width: 1100, height: 900 }): Promise<TestBrowser> {
  const provision = spawnSync(process.execPath, [fromRoot("scripts/provision-chromium.mjs")], {
    encoding: "utf8",
  });
  if (provision.status !== 0) throw new Error(`chromium is not available: ${provision.stderr.trim()}`);
  const executablePath = provision.stdout.trim().split("\n").at(-1) ?? "";
  const profile = mkdtempSync(join(tmpdir(), "canonurl-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ARGS,
    viewport,
    offline: false,
    serviceWorkers: "block",
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
