import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type LocalServer, startLocalServer } from "../helpers/local-server.js";
import { fromRoot } from "../helpers/paths.js";
import { loopbackArgs, runCli, testEnv } from "../helpers/run-cli.js";
import { runMain } from "../helpers/run-main.js";
import { tempDir } from "../helpers/temp-dir.js";

// Issue 23, item 1: output is sacred. A write error on -o FILE or on stdout (other than the reader
// leaving) stops the run with exit status 74 and one stderr line naming the output, the error and
// the input --resume continues from; the file then holds only complete lines. The full disk is a
// small tmpfs mounted in a private mount namespace (unshare -rm), so nothing outside this test
// sees it; a failed unshare fails the test (it never skips).
const BIN = fromRoot("dist", "cli", "bin.js");
const LINES = 3000;

interface Step {
  code: number;
  stderr: string;
  /** The output file as it was right after the step. */
  file: string;
}

function inputs(n: number, origin = "https://example.test"): string {
  let text = "";
  for (let i = 0; i < n; i++) text += `${origin}/path/${i}?utm_source=x&a=${i}\n`;
  return text;
}

/**
 * Runs `steps` (shell commands; `$BIN` is the binary, `$M` the tmpfs mount) one after another in one
 * private mount namespace with a `sizeKb` tmpfs at $M; `$M/out.txt` is copied out after each. A
 * step may remount $M bigger (`mount -o remount,size=1m $M`) to let a resumed run finish.
 */
function inNamespace(sizeKb: number, steps: string[], env: NodeJS.ProcessEnv = testEnv): Promise<Step[]> {
  const dir = tempDir("canonurl-enospc-");
  const mount = join(dir, "mnt");
  mkdirSync(mount);
  const script = [
    "set -u",
    `mount -t tmpfs -o size=${sizeKb}k tmpfs "$M" || exit 99`,
    ...steps.map(
      (step, i) =>
        `( ${step} ) 2> "$D/err.${i}"; echo $? > "$D/code.${i}"; cp "$M/out.txt" "$D/out.${i}" 2>/dev/null || : > "$D/out.${i}"`,
    ),
  ].join("\n");
  return new Promise((resolve, reject) => {
    const child = spawn("unshare", ["-rm", "sh", "-c", script], {
      env: { ...env, BIN: `${process.execPath} ${BIN}`, M: mount, D: dir },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`unshare -rm failed (${code}): ${stderr}`));
      resolve(
        steps.map((_, i) => ({
          code: Number(readFileSync(join(dir, `code.${i}`), "utf8")),
          stderr: readFileSync(join(dir, `err.${i}`), "utf8"),
          file: readFileSync(join(dir, `out.${i}`), "utf8"),
        })),
      );
    });
  });
}

// The one stderr line of a failed output, with the resume index it names.
function failureLine(stderr: string, target: RegExp): number {
  const lines = stderr.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `one stderr line, got: ${stderr}`);
  const line = lines[0] as string;
  assert.match(line, target);
  assert.match(line, /ENOSPC/);
  const m = /--resume continues from input (\d+)$/.exec(line);
  assert.ok(m !== null, line);
  return Number(m[1]);
}

describe("a full disk under the output (issue 23)", () => {
  let dir: string;
  let input: string;
  let expected: string[];

  before(async () => {
    dir = tempDir("canonurl-out-");
    input = join(dir, "in.txt");
    writeFileSync(input, inputs(LINES));
    const whole = await runCli(["--offline"], inputs(LINES));
    assert.equal(whole.code, 0, whole.stderr);
    expected = whole.stdout.split("\n");
    assert.equal(expected.length, LINES + 1);
  });

  // Before the fix: exit status 0, nothing on stderr, 926 of 3,000 lines.
  for (const workers of ["1", "2"]) {
    it(`-o FILE (--workers ${workers}): exit 74, one line naming the file and the index, only complete lines; --resume finishes`, async () => {
      const [failed, resumed] = await inNamespace(64, [
        `$BIN --offline --workers ${workers} -o "$M/out.txt" < "${input}"`,
        `mount -o remount,size=1m "$M" && $BIN --offline --workers ${workers} -o "$M/out.txt" --resume < "${input}"`,
      ]);
      assert.ok(failed !== undefined && resumed !== undefined);
      assert.equal(failed.code, 74, failed.stderr);
      const at = failureLine(failed.stderr, /cannot write '.*\/mnt\/out\.txt'/);
      assert.ok(at > 0 && at < LINES, `resume index ${at}`);
      assert.ok(failed.file.endsWith("\n"), "the file ends with a complete line");
      assert.deepEqual(failed.file.split("\n"), [...expected.slice(0, at), ""]);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(resumed.file, expected.join("\n"));
    });
  }

  // Before the fix: an uncaught ENOSPC stack trace and exit status 1.
  it("stdout redirected to a full disk: exit 74, the index is the file's complete lines; -o --resume finishes", async () => {
    const [failed, resumed] = await inNamespace(64, [
      `$BIN --offline < "${input}" > "$M/out.txt"`,
      `mount -o remount,size=1m "$M" && $BIN --offline -o "$M/out.txt" --resume < "${input}"`,
    ]);
    assert.ok(failed !== undefined && resumed !== undefined);
    assert.equal(failed.code, 74, failed.stderr);
    assert.doesNotMatch(failed.stderr, /internal error|at .*\.js:\d+/);
    const at = failureLine(failed.stderr, /cannot write stdout \('.*\/mnt\/out\.txt'\)/);
    assert.ok(at > 0 && at < LINES, `resume index ${at}`);
    assert.deepEqual(failed.file.split("\n"), [...expected.slice(0, at), ""]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.file, expected.join("\n"));
  });

  it("classify to a full stdout: exit 74 with the error, never a stack trace", async () => {
    const [failed] = await inNamespace(16, [`$BIN classify --json < "${input}" > "$M/out.txt"`]);
    assert.ok(failed !== undefined);
    assert.equal(failed.code, 74, failed.stderr);
    assert.match(failed.stderr, /^canonurl: cannot write stdout .*ENOSPC[^\n]*\n$/);
  });

  describe("network mode", () => {
    let server: LocalServer;
    before(async () => {
      server = await startLocalServer();
    });
    after(async () => {
      await server.close();
    });

    it("-o FILE on a full disk: exit 74 and complete lines; --resume finishes with the rest", async () => {
      const n = 400;
      const net = join(dir, "net.txt");
      writeFileSync(net, inputs(n, `${server.origin("site.test")}/${"long".repeat(10)}`));
      const args = [...loopbackArgs(server.port, ["site.test"]), "--no-cache"].join(" ");
      const [failed, resumed] = await inNamespace(16, [
        `$BIN ${args} -o "$M/out.txt" < "${net}"`,
        `mount -o remount,size=1m "$M" && $BIN ${args} -o "$M/out.txt" --resume < "${net}"`,
      ]);
      assert.ok(failed !== undefined && resumed !== undefined);
      assert.equal(failed.code, 74, failed.stderr);
      const at = failureLine(failed.stderr, /cannot write '.*\/mnt\/out\.txt'/);
      assert.ok(at > 0 && at < n, `resume index ${at}`);
      const lines = resumed.file.split("\n");
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(lines.length, n + 1);
      assert.deepEqual(failed.file.split("\n"), [...lines.slice(0, at), ""]);
      lines.slice(0, n).forEach((line, i) => {
        assert.match(line, new RegExp(`/path/${i}\\?a=${i}$`));
      });
    });
  });
});

describe("-o FILE and --cache FILE on one file (issue 23)", () => {
  // Before the fix: accepted; SQLite overwrote the results and a later --resume counted database
  // bytes as finished lines.
  it("the same path, a relative spelling, a symbolic link and the SQLite side files are usage errors", async () => {
    const dir = tempDir("canonurl-clash-");
    const file = join(dir, "both.db");
    writeFileSync(file, "kept\n");
    symlinkSync(file, join(dir, "link.txt"));
    symlinkSync(join(dir, "not-yet.db"), join(dir, "dangling.txt"));
    const cases: [string, string][] = [
      [file, file],
      [join(dir, "sub", "..", "both.db"), file],
      [join(dir, "link.txt"), file],
      [join(dir, "dangling.txt"), join(dir, "not-yet.db")],
      [`${file}-wal`, file],
    ];
    mkdirSync(join(dir, "sub"));
    for (const [output, cache] of cases) {
      // Arguments only: the first case spawns the built binary, the others run main() in-process.
      const run = await (output === file ? runCli : runMain)([
        "--cache",
        cache,
        "-o",
        output,
        "ftp://a.test/",
      ]);
      assert.equal(run.code, 2, `${output} vs ${cache}: ${run.stderr}`);
      assert.match(run.stderr, /is the cache file/);
    }
    assert.equal(readFileSync(file, "utf8"), "kept\n", "the file is left alone");
  });

  it("-o on the default cache file is refused too; another file is not", async () => {
    const xdg = tempDir("canonurl-clash-xdg-");
    const env = { ...process.env, XDG_CACHE_HOME: xdg };
    const refused = await runCli(
      ["-o", join(xdg, "canonurl", "resolutions.sqlite"), "ftp://a.test/"],
      "",
      env,
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /is the cache file/);
    const other = join(xdg, "out.txt");
    const fine = await runCli(["-o", other, "ftp://a.test/"], "", env);
    assert.equal(fine.code, 1, fine.stderr); // ftp: is refused per input, not as a usage error
    assert.equal(readFileSync(other, "utf8"), "\n");
  });
});
