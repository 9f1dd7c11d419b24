#!/usr/bin/env node
// The executable: wires the process's streams into main() and turns its result into the exit status.
import { main } from "./main.js";

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`canonurl: internal error: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
