// In io/: how the process ends is part of the boundary bin.ts wires (its streams, its exit status).
import { setFlagsFromString } from "node:v8";

/**
 * Whether this Node's V8 holds the process open at exit for a WebAssembly module's optimizing
 * compile: Node 20 (V8 11.3) does; 22, 24 and 26 were measured not to.
 *
 * @example
 * ```ts
 * wasmStallsExit("20.20.2"); // true
 * wasmStallsExit("22.23.5"); // false
 * ```
 */
export function wasmStallsExit(nodeVersion: string = process.versions.node): boolean {
  return nodeVersion.split(".")[0] === "20";
}

/**
 * On Node 20, keeps WebAssembly on V8's baseline compiler (Liftoff) for this process.
 *
 * Why: network mode's HTTP parser is undici's llhttp, a WebAssembly module. On Node 20 V8 starts
 * an optimizing (TurboFan) compile of it in the background, and Node waits for that compile
 * before the process can end: every network-mode run sat idle ~200 ms after its last output line
 * and spent ~0.15 CPU-s more. Measured 6 Dec 2026, Node 20.20.2, one URL against a local server,
 * `--no-cache`, 6 runs each (the wall time from the output line to the exit, and the CPU of the
 * process): 196-240 ms and 0.648 CPU-s without the flag; 18-31 ms and 0.505 CPU-s with
 * `--liftoff-only`. A 20,000-line run against a local server took the same CPU either way
 * (llhttp is ~1% of it). Node 22.23, 24.22 and 26.12 had no such wait (17-45 ms), so the flag is
 * set on 20 only. Only the executable calls this: the library leaves V8's flags to its host.
 *
 * @example
 * ```ts
 * avoidWasmExitStall(); // first thing in bin.ts, before undici compiles llhttp
 * ```
 */
export function avoidWasmExitStall(): void {
  if (wasmStallsExit()) setFlagsFromString("--liftoff-only");
}
