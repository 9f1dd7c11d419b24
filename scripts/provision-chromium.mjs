// Makes sure Debian's Chromium is installed for the browser tests (architecture.md: the test command
// provisions what is missing where it can, and fails loudly with the one command to run where it
// cannot). Never downloads a browser from anywhere but the system's package manager.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";
const INSTALL = "apt-get update && apt-get install -y chromium";

/** Returns the Chromium path, installing the Debian package first when that is possible. */
export function provisionChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && existsSync("/etc/debian_version")) {
    console.error(`canonurl tests: ${CHROMIUM} is missing; installing Debian's chromium: ${INSTALL}`);
    const run = spawnSync("sh", ["-c", INSTALL], { stdio: ["ignore", "inherit", "inherit"] });
    if (run.status === 0 && existsSync(CHROMIUM)) return CHROMIUM;
    throw new Error(`installing chromium failed (exit ${run.status}); run as root: ${INSTALL}`);
  }
  throw new Error(`the browser tests need ${CHROMIUM}; install it with: sudo sh -c '${INSTALL}'`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(provisionChromium());
  } catch (error) {
    console.error(`canonurl: ${error.message}`);
    process.exit(1);
  }
}
