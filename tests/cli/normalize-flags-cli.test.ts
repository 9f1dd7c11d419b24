import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { NORMALIZE_FLAGS } from "../../src/cli/flags/normalize-flags.js";
import { NORMALIZE_OPTION_KEYS } from "../../src/pipeline/resolve-normalize-options.js";
import { fromRoot } from "../helpers/paths.js";
import { runCli } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { tempDir } from "../helpers/temp-dir.js";

// A flag's effect is a matter of arguments and output: main() runs in this process (runMain), and
// only the first case of each table below spawns the built binary, which holds the binary's wiring
// of the same flags (49 spawns of ~0.25 CPU-s each before).
let spawned = false;
async function offline(...args: string[]): Promise<string> {
  const run = spawned ? runMain : runCli;
  spawned = true;
  const r = await run(["--offline", ...args]);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

// Every NormalizeOptions key and the flags that set it; a key without a flag names where
// docs/cli.md says why. A new option key fails this test until it is given one or the other.
const FLAGS_OF_OPTION: Record<string, string[]> = {
  preset: ["preset"],
  stripTracking: ["strip-tracking", "no-strip-tracking"],
  trackingParams: [], // docs/cli.md: replacing the whole list has no flag
  extraTrackingParams: ["strip-param"],
  keepParams: ["keep-param"],
  stripUserinfo: ["strip-userinfo", "no-strip-userinfo"],
  sortParams: ["sort", "no-sort"],
  trailingSlash: ["trailing-slash"],
  stripFragment: ["no-strip-fragment"],
  rules: ["rules", "no-rules", "amazon-host"],
  defaultScheme: ["default-scheme"],
  trackingLayers: ["rules"], // --rules clearurls: the ClearURLs pack as a layer
  // docs/cli.md: normalize-url's opt-in habits and session ids have no flag yet.
  forceHttps: [],
  stripWWW: [],
  removeDirectoryIndex: [],
  removeSessionIds: [],
};

describe("every normalize option has a flag", () => {
  const doc = readFileSync(fromRoot("docs", "cli.md"), "utf8");
  it("each NormalizeOptions key maps to flags that exist and are documented", () => {
    for (const key of NORMALIZE_OPTION_KEYS) {
      const flags = FLAGS_OF_OPTION[key];
      assert.ok(flags !== undefined, `option ${key} has no flag in the CLI (or no entry in this table)`);
      for (const flag of flags) {
        assert.ok(flag in NORMALIZE_FLAGS, `--${flag} is not in NORMALIZE_FLAGS`);
        assert.ok(doc.includes(`--${flag}`), `docs/cli.md does not document --${flag}`);
      }
      assert.ok(doc.includes(`\`${key}\``), `docs/cli.md does not name the option ${key}`);
    }
    // And no flag of the table is left unmapped.
    const mapped = new Set(Object.values(FLAGS_OF_OPTION).flat());
    for (const flag of Object.keys(NORMALIZE_FLAGS))
      assert.ok(mapped.has(flag), `--${flag} maps to no option`);
  });
});

describe("the normalize flags change the output", () => {
  it("--default-scheme https", async () => {
    assert.equal(await offline("example.com/x"), "http://example.com/x\n");
    assert.equal(await offline("--default-scheme", "https", "example.com/x"), "https://example.com/x\n");
  });

  it("--no-strip-userinfo and --strip-userinfo", async () => {
    const url = "http://user:pass@a.test/x";
    assert.equal(await offline(url), "http://a.test/x\n");
    assert.equal(await offline("--no-strip-userinfo", url), "http://user:pass@a.test/x\n");
    assert.equal(await offline("--preset", "rfc3986", url), "http://user:pass@a.test/x\n");
    assert.equal(await offline("--preset", "rfc3986", "--strip-userinfo", url), "http://a.test/x\n");
  });

  it("--no-strip-fragment", async () => {
    assert.equal(await offline("http://a.test/p#top"), "http://a.test/p\n");
    assert.equal(await offline("--no-strip-fragment", "http://a.test/p#top"), "http://a.test/p#top\n");
  });

  it("--no-rules", async () => {
    const url = "https://youtu.be/dQw4w9WgXcQ";
    assert.equal(await offline(url), "https://www.youtube.com/watch?v=dQw4w9WgXcQ\n");
    assert.equal(await offline("--no-rules", url), "https://youtu.be/dQw4w9WgXcQ\n");
  });

  it("--amazon-host com (offline and in explain)", async () => {
    const url = "https://www.amazon.de/Some-Thing/dp/B08N5WRWNW/ref=sr_1_1?keywords=x";
    assert.equal(await offline(url), "https://www.amazon.de/dp/B08N5WRWNW\n");
    assert.equal(await offline("--amazon-host", "regional", url), "https://www.amazon.de/dp/B08N5WRWNW\n");
    assert.equal(await offline("--amazon-host", "com", url), "https://www.amazon.com/dp/B08N5WRWNW\n");
    const e = await runMain(["explain", "--amazon-host", "com", url]);
    assert.match(e.stdout, /^rule +amazon-com-v3$/m);
  });

  it("--amazon-host with --rules FILE: the file's rules first, then the chosen built-ins", async () => {
    const dir = tempDir("canonurl-flags-");
    const file = join(dir, "r.yaml");
    writeFileSync(file, "- name: mine-v1\n  domains: [a.test]\n  stripParams: [sid]\n");
    const out = await offline(
      "--rules",
      file,
      "--amazon-host",
      "com",
      "http://a.test/?sid=1&x=2",
      "https://amazon.de/dp/B08N5WRWNW",
    );
    assert.equal(out, "http://a.test/?x=2\nhttps://www.amazon.com/dp/B08N5WRWNW\n");
  });

  it("--strip-param adds to the built-in list; --keep-param still wins", async () => {
    const url = "http://a.test/?sess=1&utm_source=x&k=2";
    assert.equal(await offline(url), "http://a.test/?k=2&sess=1\n");
    assert.equal(await offline("--strip-param", "sess", url), "http://a.test/?k=2\n");
    assert.equal(
      await offline("--strip-param", "se*", "--keep-param", "sess", url),
      "http://a.test/?k=2&sess=1\n",
    );
  });

  it("--strip-tracking and --sort turn identity behaviour on under rfc3986; --no-strip-tracking off", async () => {
    const url = "http://a.test/p/?b=1&utm_source=x&a=2";
    assert.equal(await offline("--preset", "rfc3986", url), "http://a.test/p/?b=1&utm_source=x&a=2\n");
    assert.equal(await offline("--preset", "rfc3986", "--strip-tracking", url), "http://a.test/p/?b=1&a=2\n");
    assert.equal(
      await offline("--preset", "rfc3986", "--sort", url),
      "http://a.test/p/?a=2&b=1&utm_source=x\n",
    );
    assert.equal(await offline("--no-strip-tracking", url), "http://a.test/p?a=2&b=1&utm_source=x\n");
  });
});

describe("bad or contradicting normalize flags are usage errors (exit 2)", () => {
  for (const [args, message] of [
    [["--default-scheme", "ftp"], /--default-scheme must be http or https, got 'ftp'/],
    [["--amazon-host", "uk"], /--amazon-host must be regional or com, got 'uk'/],
    [["--trailing-slash", "maybe"], /--trailing-slash must be keep, strip or add/],
    [["--sort", "--no-sort"], /--sort and --no-sort contradict/],
    [["--strip-tracking", "--no-strip-tracking"], /contradict/],
    [["--strip-param", "x", "--no-strip-tracking"], /--strip-param and --no-strip-tracking contradict/],
    [["--no-rules", "--amazon-host", "com"], /--amazon-host and --no-rules contradict/],
    [["--no-rules", "--rules", "x.yaml"], /--rules and --no-rules contradict/],
    [["--preset", "rfc3986", "--amazon-host", "com"], /--preset rfc3986 does not apply/],
    [["--no-strip-fragment=yes"], /no-strip-fragment/],
    [["--keep-param", ""], /keepParams/],
  ] as const) {
    it(args.join(" "), async () => {
      for (const command of [["--offline"], ["explain"]]) {
        // The first case through the built binary, the others through main() in this process.
        const run = args[0] === "--default-scheme" ? runCli : runMain;
        const r = await run([...command, ...args, "http://a.test/"]);
        assert.equal(r.code, 2, `${command} ${args.join(" ")}: ${r.stderr}`);
        assert.equal(r.stdout, "");
        assert.match(r.stderr, message);
        assert.match(r.stderr, /Try 'canonurl --help'/);
      }
    });
  }
});
