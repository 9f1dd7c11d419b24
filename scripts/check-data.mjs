// Validates the built-in domain rules (and the tracking parameter list) at build time, after tsc:
// the library constructs them at import without validating (src/rules/default-rules.ts,
// src/pipeline/default-tracking-params.ts), so this is where a bad data file fails,
// loudly, before it can ship. It runs the validator user files go through (compileRules, which
// also probes every rule for convergence) over the generated data, and requires the validated
// copies to equal the data as generated: a field the validator would drop or rewrite would make
// the trusted built-ins differ from what validation approved.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";

// The compiled tree to check: dist/ unless a directory is given (the tests hand it a bad one).
const root =
  process.argv[2] === undefined
    ? new URL("../dist/", import.meta.url)
    : pathToFileURL(`${resolve(process.argv[2])}/`);
const { domainRules } = await import(new URL("generated/data.js", root).href);
const { compileRules } = await import(new URL("rules/compile-rules.js", root).href);
const { validateRules } = await import(new URL("rules/validate-rules.js", root).href);

try {
  compileRules(domainRules, "data/domain-rules.yaml");
} catch (error) {
  console.error(`check-data: ${error.message}`);
  for (const p of error.problems ?? []) console.error(`  ${p.path}: ${p.message}`);
  process.exit(1);
}
// The tracking parameters: the library reads the names alone (trackingParamNames); the file must
// pass readTrackingParams, and its names must be those.
const { trackingParams, trackingParamNames } = await import(new URL("generated/data.js", root).href);
const { readTrackingParams } = await import(new URL("pipeline/default-tracking-params.js", root).href);
let tiers;
try {
  tiers = readTrackingParams(trackingParams);
} catch (error) {
  console.error(`check-data: ${error.message}`);
  process.exit(1);
}
if (!isDeepStrictEqual(tiers, trackingParamNames)) {
  console.error(
    "check-data: trackingParamNames is not what readTrackingParams reads from data/tracking-params.yaml",
  );
  process.exit(1);
}

const { rules } = validateRules(domainRules);
rules.forEach((rule, i) => {
  if (!isDeepStrictEqual(rule, domainRules[i])) {
    console.error(
      `check-data: data/domain-rules.yaml [${i}] (${rule.name}) is not in the validator's form:\n` +
        `  as written:   ${JSON.stringify(domainRules[i])}\n  as validated: ${JSON.stringify(rule)}`,
    );
    process.exit(1);
  }
});
