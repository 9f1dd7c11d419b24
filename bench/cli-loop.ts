// The baseline of the cli group, run as its own process like the command: read the file, call
// normalize() on each line in a loop, write the results to stdout in 64 KiB pieces. It is the
// least a program doing the command's job must do, with the same start-up and a heap as fresh as
// the command's (run inside the bench process, the loop paid for the corpus garbage the bench had
// made, which flattered the command).
import { readFileSync, writeSync } from "node:fs";
import { normalize } from "../src/index.js";

const file = process.argv[2];
if (file === undefined) throw new Error("usage: cli-loop FILE");
const lines = readFileSync(file, "utf8").split("\n");
if (lines.at(-1) === "") lines.pop();
let out = "";
for (const line of lines) {
  try {
    out += `${normalize(line)}\n`;
  } catch {
    out += "\n";
  }
  if (out.length >= 65_536) {
    writeSync(1, out);
    out = "";
  }
}
writeSync(1, out);
