import type { Outcome, Resolution } from "../resolve/types.js";

/**
 * The outcome of a blank input line in a fleet: not a failure, as `canonurl` answers it (api.md
 * §7: a blank line prints a blank line; `--json` says `"blank": true`), so `fleet.results()` and
 * `fleet progress` agree with a local run (docs/fleet.md). Its result is empty: `url` is `""`, no
 * hop was made, nothing was fetched or cached.
 *
 * @example
 * ```ts
 * for await (const o of fleet.results(job)) if ("blank" in o) console.log(o.index, "blank");
 * ```
 */
export interface BlankOutcome {
  index: number;
  input: string;
  ok: true;
  blank: true;
  result: Resolution;
}

/**
 * What `fleet.results()` yields: an {@link Outcome}, or a {@link BlankOutcome} for a blank line.
 *
 * @example
 * ```ts
 * const answered: FleetOutcome[] = [];
 * for await (const o of fleet.results(job)) answered.push(o);
 * ```
 */
export type FleetOutcome = Outcome | BlankOutcome;

/**
 * The {@link BlankOutcome} of input `index`.
 *
 * @example
 * ```ts
 * blankOutcome(3, "").result.url; // ""
 * ```
 */
export function blankOutcome(index: number, input: string): BlankOutcome {
  return {
    index,
    input,
    ok: true,
    blank: true,
    result: {
      url: "",
      original: input,
      source: "initial",
      chain: [],
      // No response confirmed anything: there was nothing to ask about.
      status: 0,
      headers: {},
      ruleApplied: null,
      paramsStripped: [],
      verified: true,
      durationMs: 0,
      cached: false,
      stale: false,
    },
  };
}
