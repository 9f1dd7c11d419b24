/**
 * Where a job's state lives in Redis, under `canonurl:fleet:QUEUE:JOB:`. Every key of a job
 * expires with its results, so a finished crawl leaves nothing behind after the TTL.
 *
 * @example
 * ```ts
 * jobKeys("canonurl", "crawl").chunk(3); // "canonurl:fleet:canonurl:crawl:chunk:3"
 * ```
 */
export function jobKeys(queue: string, job: string) {
  const p = `canonurl:fleet:${queue}:${job}:`;
  return {
    /** Hash: chunkSize, submitted (inputs so far), total (set once the input ended). */
    meta: `${p}meta`,
    /** Hash: chunk number -> "size,failed" once its outcomes are stored. */
    counts: `${p}counts`,
    /** String: the JSON array of a chunk's stored outcomes. */
    chunk: (n: number) => `${p}chunk:${n}`,
    /**
     * Hash of a chunk rerun after a crash: `done:N` -> input N's stored outcome, `run:N` -> input
     * N is in flight, `crash:N` -> times a worker died with input N in flight.
     */
    partial: (n: number) => `${p}partial:${n}`,
  };
}

/**
 * The prefix of the fleet-wide per-host slots of a queue.
 *
 * @example
 * ```ts
 * hostPrefix("canonurl"); // "canonurl:fleet:canonurl:"
 * ```
 */
export function hostPrefix(queue: string): string {
  return `canonurl:fleet:${queue}:`;
}
