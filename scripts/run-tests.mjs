// Runs every compiled test file under build/tests with node's own test runner. The TAP reporter is
// forced so that its closing `# pass N` / `# fail N` lines reach CI output whatever the terminal is.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { provisionChromium } from "./provision-chromium.mjs";

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith(".test.js")) out.push(path);
  }
  return out;
}

const only = process.argv.slice(2);
const files = findTests(join("build", "tests")).filter(
  (f) => only.length === 0 || only.some((o) => f.includes(o)),
);
if (files.length === 0) {
  console.error("no test files found under build/tests");
  process.exit(1);
}
// Chromium is installed here, before any test starts, so the minute apt-get may take never counts
// against a browser test's timeout. Where it cannot be installed, the browser tests fail with the
// command to run (tests/helpers/chromium.ts); the other tests still run.
if (files.some((f) => f.endsWith(".browser.test.js"))) {
  try {
    provisionChromium();
  } catch (error) {
    console.error(`canonurl tests: ${error.message}`);
  }
}
const result = spawnSync(process.execPath, ["--test", "--test-reporter=tap", ...files], { stdio: "inherit" });
process.exit(result.status ?? 1);
