#!/usr/bin/env node
// The executable: wires the process's streams into main() and turns its result into the exit status.
import { isClosedOutputError } from "./io/io.js";
import { startWorkersFor } from "./workers/worker-prestart.js";

// First, before the command line loads: an offline run's worker threads boot on the other cores
// while this thread loads its modules and reads the flags.
startWorkersFor(process.argv.slice(2));
const { main } = await import("./main.js");

// A write that was buffered before the reader went away can report EPIPE after main() returned;
// the run is over and has nothing left to say, so only other errors are real.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (!isClosedOutputError(error)) throw error;
  });
}

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`canonurl: internal error: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
