#!/usr/bin/env node
// The executable: wires the process's streams into main() and turns its result into the exit status.
import { isClosedOutputError } from "./io/io.js";
import { avoidWasmExitStall } from "./io/wasm-exit-stall.js";
import { startWorkersFor } from "./workers/worker-prestart.js";

// Before anything compiles WebAssembly (undici's HTTP parser, in network mode): on Node 20 a
// background optimizing compile of it held every network run open ~0.2 s at exit.
avoidWasmExitStall();

// First, before the command line loads: an offline run's worker threads boot on the other cores
// while this thread loads its modules and reads the flags.
startWorkersFor(process.argv.slice(2));
const { main } = await import("./main.js");

// A write that was buffered before the reader went away can report EPIPE after main() returned;
// the run is over and has nothing left to say. Any other error there is lost output: status 74.
// While main() runs it reports such an error itself.
let returned = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (isClosedOutputError(error)) return;
    if (returned && stream === process.stdout)
      process.stderr.write(`canonurl: cannot write stdout: ${error.message}\n`);
    process.exitCode = 74;
  });
}

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    returned = true;
    // A late stdout failure (after main returned) already set 74: lost output outranks the result.
    if (process.exitCode !== 74) process.exitCode = code;
  },
  (error: unknown) => {
    returned = true;
    process.stderr.write(`canonurl: internal error: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
