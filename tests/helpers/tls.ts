import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A throwaway certificate authority and one server certificate it issued, all PEM text. */
export interface TlsFixture {
  /** The CA certificate: pass it as the `ca` option to trust `cert`. */
  ca: string;
  /** The server's private key. */
  key: string;
  /** The server certificate, for the names asked for. */
  cert: string;
}

/** True when the `openssl` CLI is on PATH; HTTPS tests skip loudly without it. */
export const hasOpenssl: boolean = spawnSync("openssl", ["version"], { stdio: "ignore" }).status === 0;

/**
 * Generates, in a temporary directory that is removed before returning, a fresh CA (P-256, valid one
 * day) and a server certificate for `names` (subjectAltName DNS entries; IP entries for addresses).
 * Nothing is written to the repository; every call yields an unrelated CA, so a second fixture is an
 * "untrusted" one for the first.
 *
 * @example
 * ```ts
 * const tls = createTlsFixture(["good.test"]);
 * https.createServer({ key: tls.key, cert: tls.cert }, handler);
 * ```
 */
export function createTlsFixture(names: readonly string[]): TlsFixture {
  const dir = mkdtempSync(join(tmpdir(), "canonurl-tls-"));
  const run = (args: string[]): void => {
    execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  };
  try {
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    run([
      "req",
      "-x509",
      ...ec,
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "1",
      "-subj",
      "/CN=canonurl throwaway test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    run(["req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", `/CN=${names[0] ?? "test"}`]);
    const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(",");
    writeFileSync(
      join(dir, "ext.cnf"),
      `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${san}\n`,
    );
    run([
      "x509",
      "-req",
      "-in",
      "server.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "server.pem",
      "-days",
      "1",
      "-extfile",
      "ext.cnf",
    ]);
    return {
      ca: readFileSync(join(dir, "ca.pem"), "utf8"),
      key: readFileSync(join(dir, "server.key"), "utf8"),
      cert: readFileSync(join(dir, "server.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
