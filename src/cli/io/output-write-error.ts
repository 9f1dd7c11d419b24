/**
 * The output of a run could not be written (a full disk, an I/O error on `-o FILE` or stdout): the
 * run stops with exit status 74 and one line on stderr naming the output, the error and the input
 * index a `--resume` run continues from (api.md §7). The output then holds only complete lines.
 *
 * @example
 * ```ts
 * throw new OutputWriteError("'out.txt'", 926, enospc); // "cannot write 'out.txt': ENOSPC: …; …"
 * ```
 */
export class OutputWriteError extends Error {
  override name = "OutputWriteError";
  /** Stable code, as the library's errors carry one. */
  readonly code = "output-write";

  /**
   * @param target - the output as the user named it: `'FILE'` or `stdout`
   * @param resumeAt - complete lines in the output: the input index `--resume` continues from, or
   *   undefined when the command has no resume (classify, explain)
   */
  constructor(
    readonly target: string,
    readonly resumeAt: number | undefined,
    cause: Error,
  ) {
    super(
      `cannot write ${target}: ${cause.message}` +
        (resumeAt === undefined
          ? ""
          : `; ${resumeAt} complete lines written, --resume continues from input ${resumeAt}`),
      { cause },
    );
  }
}
