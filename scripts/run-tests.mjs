// Runs every compiled test file under build/tests with node's own test runner. The TAP reporter is
// forced so that its closing `# pass N` / `# fail N` lines reach CI output whatever the terminal is.
// Services the selected tests need (a redis-server) are started here, handed over through the
// environment, and stopped at the end whatever the tests did.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { provisionChromium } from "./provision-chromium.mjs";
import { ensureRedisServer, startRedisServer } from "./test-services.mjs";

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    // tsc never deletes its output: a test whose source was moved or removed leaves its old build
    // behind, which would run again against stale modules. Only a test with a source is run.
    else if (name.endsWith(".test.js") && existsSync(path.replace(/^build[\\/]/, "").replace(/\.js$/, ".ts")))
      out.push(path);
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

// A test file that needs the shared server says so by calling testRedisUrl() (tests/helpers).
const needsRedis = files.some((f) => /\btestRedisUrl\b/.test(readFileSync(f, "utf8")));
let redis;
let missing = false;
const env = { ...process.env };
if (needsRedis) {
  const binary = ensureRedisServer();
  if (binary.error !== undefined) {
    // The tests that need it fail (testRedisUrl throws with this message); they are never skipped.
    missing = true;
    console.error(`\n*** ${binary.error}\n*** the tests that need Redis will FAIL\n`);
    env.CANONURL_TEST_REDIS_MISSING = binary.error;
  } else {
    redis = await startRedisServer({ path: binary.path });
    env.CANONURL_TEST_REDIS = redis.url;
    env.CANONURL_REDIS_SERVER = binary.path;
  }
}

// Chromium is installed here, before any test starts, so the minute apt-get may take never counts
// against a browser test's timeout. Where it cannot be installed, the browser tests fail with the
// command to run (tests/helpers/chromium.ts); they are never skipped.
if (files.some((f) => f.endsWith(".browser.test.js"))) {
  try {
    provisionChromium();
  } catch (error) {
    console.error(`\n*** ${error.message}\n*** the browser tests will FAIL\n`);
  }
}

// How many test files run at once: one more than the CPUs. Node's default is one less than the CPUs
// (one file at a time on a two-core machine); two left the cores short of work, because a file
// spends part of its time waiting on a child process, a socket, a drain or a timer. Measured on
// 2 cores beside other work, full `npm test`, the same tree, with a preload that summed each test
// file's CPU (its own and its children's), 5 Dec 2026: 2 files at once, 328.8 s with the files
// using 1.79 cores; 3 at once, 285.5 s using 1.91 cores, all 1857 passing (the machine busier
// during the second: load average 6 to 6.7 against 3.8 to 5.7). Again back to back in one hold of
// the lock, after main's merge: 341.5 s against 299.8 s (1858 passing each). On a machine loaded
// past its cores (load average 8 to 12) both take ~550-600 s. CANONURL_TEST_CONCURRENCY overrides.
const concurrency = testConcurrency(process.env.CANONURL_TEST_CONCURRENCY);
// The tests' temporary files go to a directory of this run (TMPDIR, which os.tmpdir() and mktemp
// read), removed at the end whatever it holds. A test that leaves a canonurl-* file or directory
// behind fails the run, naming it: each full suite used to leave ~40 in /tmp (9,600 had piled up).
// A test removes what it makes (tests/helpers/temp-dir.ts removes its directories at exit).
const privateTmp = mkdtempSync(join(tmpdir(), "canonurl-run-"));
env.TMPDIR = privateTmp;
const child = spawn(
  process.execPath,
  ["--test", "--test-reporter=tap", `--test-concurrency=${concurrency}`, ...files],
  { stdio: "inherit", env },
);
const forward = (signal) => child.kill(signal);
process.on("SIGINT", forward);
process.on("SIGTERM", forward);
const status = await new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
await redis?.stop();
const leftovers = leftBehind(privateTmp);
if (missing) console.error(`\n*** redis-server missing: ${env.CANONURL_TEST_REDIS_MISSING}`);
process.exit(status === 0 && (missing || leftovers) ? 1 : status);

// Removes the run's TMPDIR; true when the tests left a canonurl-* entry in it (said on stderr).
// Anything else there (a browser's or a tool's own leftovers) is removed without failing the run.
function leftBehind(dir) {
  let names = [];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith("canonurl-"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (names.length === 0) return false;
  console.error(
    `\n*** the tests left ${names.length} temporary file(s) or directories behind (a test must remove what it makes; see tests/helpers/temp-dir.ts):\n${names.map((n) => `***   ${n}`).join("\n")}`,
  );
  return true;
}

function testConcurrency(value) {
  if (value === undefined || value === "") return availableParallelism() + 1;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`CANONURL_TEST_CONCURRENCY must be a whole number ≥ 1, not ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return n;
}
