import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

/** One fixture row after running it: its key, whether canonurl agreed, and what each side said. */
export interface RowResult {
  key: string;
  agrees: boolean;
  expected: string;
  got: string;
}

/**
 * Checks a conformance run against its ledger of known divergences: every disagreeing row must be
 * listed with a known category (a new divergence fails), every listed row must still disagree (a
 * fixed row must leave the ledger, so the agreement count only goes up), and the agreement count
 * must reach `minAgree`. Returns the number of agreeing rows.
 *
 * `notOnThisRuntime` names ledger rows whose divergence comes from the runtime (Node's URL parser)
 * and that this runtime does not have: they are held to full agreement here, like unlisted rows.
 */
export function checkAgainstLedger(
  results: readonly RowResult[],
  ledgerPath: string,
  categories: ReadonlySet<string>,
  minAgree: number,
  notOnThisRuntime: ReadonlySet<string> = new Set(),
): number {
  const ledger = JSON.parse(readFileSync(ledgerPath, "utf8")) as Record<string, string>;
  for (const key of notOnThisRuntime) {
    assert.ok(Object.hasOwn(ledger, key), `${JSON.stringify(key)} is not in the ledger`);
    delete ledger[key];
  }
  const unlisted: string[] = [];
  const fixed: string[] = [];
  let agree = 0;
  const seen = new Set<string>();
  for (const r of results) {
    seen.add(r.key);
    const listed = Object.hasOwn(ledger, r.key);
    if (r.agrees) {
      agree++;
      if (listed) fixed.push(r.key);
    } else if (!listed)
      unlisted.push(
        `${JSON.stringify(r.key)}: expected ${JSON.stringify(r.expected)}, got ${JSON.stringify(r.got)}`,
      );
  }
  const unknownCategory = Object.entries(ledger).filter(([, c]) => !categories.has(c));
  const stale = Object.keys(ledger).filter((k) => !seen.has(k));
  assert.deepEqual(unlisted, [], "new divergences: explain them in the ledger or fix them");
  assert.deepEqual(fixed, [], "these rows agree now: remove them from the ledger");
  assert.deepEqual(unknownCategory, [], "ledger rows with an unexplained category");
  assert.deepEqual(stale, [], "ledger rows that are not in the fixture");
  assert.ok(agree >= minAgree, `agreement fell to ${agree}, below ${minAgree}`);
  return agree;
}
