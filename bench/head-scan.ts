// The head scan against hostile heads: CPU time per 1 MiB shape (the default maxBodyBytes), as a
// ratio to scanning a benign 1 MiB head. The scan runs on the event loop, where no deadline can
// interrupt it, so CPU time (process.cpuUsage), not wall time, is the figure.
import { scanHtmlHead } from "../src/resolve/discover/html-canonical.js";
import { benignHead, chunked, hostileHeads } from "../tests/helpers/hostile-heads.js";

const MiB = 1 << 20;
const doc = new URL("https://bench.test/page");

/** One shape's median CPU time over the rounds, with what the scan did. */
export interface HeadScanFigure {
  name: string;
  cpuMs: number;
  ratio: number;
  stoppedBy: string;
  bytesRead: number;
}

async function cpuMs(bytes: Uint8Array): Promise<{ ms: number; stoppedBy: string; bytesRead: number }> {
  // 16 KiB, as a socket hands the body over.
  const chunks = chunked(bytes, 16_384);
  const start = process.cpuUsage();
  const scan = await scanHtmlHead(chunks, doc, MiB);
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, stoppedBy: scan.stoppedBy, bytesRead: scan.bytesRead };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Scans the benign head and every hostile shape `rounds` times each (interleaved, after two
 * warm-up passes) and returns the median CPU ms per shape with its ratio to the benign head.
 *
 * @example
 * ```ts
 * for (const f of await benchHeadScan(7)) console.log(f.name, f.cpuMs, f.ratio);
 * ```
 */
export async function benchHeadScan(rounds: number): Promise<HeadScanFigure[]> {
  const cases = [
    { name: "benign 1 MiB head (peer)", bytes: new TextEncoder().encode(benignHead(MiB)) },
    ...hostileHeads(MiB).map((shape) => ({ name: shape.name, bytes: new TextEncoder().encode(shape.html) })),
  ];
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  const last = new Map<string, { stoppedBy: string; bytesRead: number }>();
  for (let round = -2; round < rounds; round++) {
    for (const c of cases) {
      const run = await cpuMs(c.bytes);
      if (round >= 0) samples.get(c.name)?.push(run.ms);
      last.set(c.name, run);
    }
  }
  const benign = median(samples.get(cases[0]?.name ?? "") ?? []);
  return cases.map((c) => {
    const ms = median(samples.get(c.name) ?? []);
    const seen = last.get(c.name) ?? { stoppedBy: "?", bytesRead: 0 };
    return { name: c.name, cpuMs: ms, ratio: ms / benign, ...seen };
  });
}
