import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fromRoot } from "../helpers/paths.js";
import { runCli } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 23, item 6: `canonurl help` resolved http://help/ over DNS and created a cache file; fleet
// was missing from --help and the docs; `fleet --help`, `serve --help` and `explain --help` were
// usage errors or the global text.

// Runs the binary in a private network namespace (loopback only): were `help` taken for a URL, its
// DNS look-up could reach nothing outside.
function isolated(args: string[], xdg: string): { code: number | null; stdout: string; stderr: string } {
  const command = [process.execPath, fromRoot("dist/cli/bin.js"), ...args].map((a) => `'${a}'`).join(" ");
  const run = spawnSync("unshare", ["-rn", "sh", "-c", `ip link set lo up && ${command}`], {
    env: { ...process.env, XDG_CACHE_HOME: xdg },
    encoding: "utf8",
  });
  if (run.error !== undefined) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("canonurl help | version (issue 23)", () => {
  it("`help` and `version` alone are --help and --version: no cache file, no resolution", async () => {
    const xdg = tempDir("canonurl-help-");
    const help = isolated(["help"], xdg);
    const version = isolated(["version"], xdg);
    const flagHelp = await runMain(["--help"]);
    const flagVersion = await runMain(["--version"]);
    assert.equal(help.code, 0, help.stderr);
    assert.equal(help.stderr, "");
    assert.equal(help.stdout, flagHelp.stdout);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout, flagVersion.stdout);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    assert.equal(existsSync(join(xdg, "canonurl")), false, "no cache directory was created");
  });

  it("a bare word that is neither stays an input", async () => {
    const run = await runMain(["--offline", "helpdesk", "versions"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "http://helpdesk/\nhttp://versions/\n");
  });

  it("--help names fleet and every subcommand's own help; README and docs/cli.md list fleet", async () => {
    const run = await runMain(["--help"]);
    assert.match(run.stdout, /canonurl fleet submit\|work\|results/);
    assert.match(run.stdout, /canonurl help \| version/);
    assert.match(
      readFileSync(fromRoot("README.md"), "utf8"),
      /\[docs\/fleet\.md\]\(https:\/\/github\.com\/canonurl\/canonurl\/blob\/main\/docs\/fleet\.md\)/,
    );
    assert.match(readFileSync(fromRoot("docs", "cli.md"), "utf8"), /## `canonurl fleet`/);
  });
});

describe("every subcommand has its own --help (issue 23)", () => {
  const global = spawnSync(process.execPath, [fromRoot("dist/cli/bin.js"), "--help"], { encoding: "utf8" });
  // Each subcommand's help names its own flags; the table is the flags each one parses.
  const cases: [string[], string[]][] = [
    [["classify"], ["--json"]],
    [["explain"], ["--json", "--offline", "--preset"]],
    [
      ["serve"],
      [
        "--host",
        "--port",
        "--allow-resolve",
        "--token",
        "--max-body-bytes",
        "--max-batch",
        "--max-in-flight",
        "--request-timeout",
        "--drain-timeout",
        "--concurrency",
        "--host-concurrency",
        "--max-hops",
        "--timeout",
        "--allow-private",
        "--allow-network",
        "--allowed-port",
        "--resolve",
        "--cache",
        "--no-cache",
        "--refresh",
      ],
    ],
    [["fleet"], ["submit", "work", "results", "--redis-timeout"]],
    [
      ["fleet", "submit"],
      ["--redis", "--queue", "--job", "--chunk-size", "--redis-timeout"],
    ],
    [
      ["fleet", "work"],
      [
        "--redis",
        "--queue",
        "--concurrency",
        "--host-concurrency",
        "--stalled-interval",
        "--drain-timeout",
        "--redis-timeout",
        "--resolve",
      ],
    ],
    [
      ["fleet", "results"],
      ["--redis", "--queue", "--job", "--json", "--follow", "--redis-timeout"],
    ],
  ];
  // A help text is a matter of arguments and output: `classify --help` spawns the built binary,
  // the other 13 run main() in this process (runMain), 13 Node starts fewer.
  for (const [command, flags] of cases) {
    for (const flag of ["--help", "-h"]) {
      it(`canonurl ${command.join(" ")} ${flag}`, async () => {
        const spawned = command[0] === "classify" && flag === "--help";
        const run = await (spawned ? runCli : runMain)([...command, flag]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stderr, "");
        assert.notEqual(run.stdout, global.stdout, "its own text, not the global one");
        assert.match(run.stdout, new RegExp(`^Usage:[\\s\\S]*canonurl ${command.join(" ")}`));
        for (const name of flags)
          assert.ok(run.stdout.includes(name), `${command.join(" ")} --help names ${name}`);
      });
    }
  }
});
