/** Prints a group's medians with the ratio of each contender to each named baseline. */
export function report(
  title: string,
  size: number,
  rounds: number,
  medians: Map<string, number>,
  baselines: string[],
): void {
  console.log(`\n## ${title} (${size} URLs, median of ${rounds} interleaved rounds)`);
  const header = ["case", "ns/URL", ...baselines.map((b) => `× ${b}`)];
  console.log(header.join(" | "));
  for (const [name, ns] of medians) {
    const ratios = baselines.map((b) => (ns / (medians.get(b) ?? Number.NaN)).toFixed(2));
    console.log([name, ns.toFixed(0), ...ratios].join(" | "));
  }
}
