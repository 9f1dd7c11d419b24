import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createContext, runInContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { transform } from "esbuild";
import { type BundleTarget, bundleCore } from "./bundle-core.js";

// The README promises that normalize and classify run in browsers and edge workers: the issue found
// `esbuild --bundle --platform=browser` failing with 123 "Could not resolve node:*" errors. Here
// canonurl/core is bundled as a user would (by package name, no externals), then run in a realm
// that has what a browser or worker has and nothing of Node.

const PROBE = `
import { classify, compileRules, defaultRules, explain, isRuleError, isUrlError, normalize } from "canonurl/core";
export function probe() {
  const e = explain("https://youtu.be/dQw4w9WgXcQ?si=x&utm_source=y");
  const rules = compileRules([
    { name: "shop-v1", domains: ["shop.example", "www.shop.example"], canonicalHost: "www.shop.example",
      pathPatterns: [{ match: "/item/{id}/{slug}", rewrite: "/item/{id}" }] },
  ]);
  const caught = (run) => { try { run(); return null; } catch (error) { return error; } };
  const ruleError = caught(() => compileRules([{ domains: ["a.example"] }]));
  const urlError = caught(() => normalize("ftp://example.com/"));
  return JSON.stringify({
    identity: normalize("HTTP://Example.COM:80/a/./b/../c/?gclid=1"),
    rfc3986: normalize("HTTP://Example.COM:80/a/./b/../c/?gclid=1", { preset: "rfc3986" }),
    idn: normalize("http://Bücher.example/ä"),
    explain: [e.canonical, e.ruleApplied, e.paramsStripped, e.steps.map((s) => s.stage)],
    classify: [classify("https:/evil.test/x").class, classify("https://trusted@evil.test/").host],
    defaultRules: defaultRules.map((r) => r.name).includes("youtube-v3"),
    compiled: normalize("http://shop.example/item/42/blue-shoe?utm_source=x", { rules }),
    ruleError: [isRuleError(ruleError), ruleError?.code, ruleError?.problems?.[0]?.path],
    urlError: [isUrlError(urlError), urlError?.code],
  });
}
`;

const EXPECTED = {
  identity: "http://example.com/a/c",
  rfc3986: "http://example.com/a/c/?gclid=1",
  idn: "http://xn--bcher-kva.example/%C3%A4",
  explain: [
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "youtube-v3",
    ["si", "utm_source"],
    ["parse", "generic", "rule", "final"],
  ],
  classify: ["hidden-host", "evil.test"],
  defaultRules: true,
  compiled: "http://www.shop.example/item/42",
  ruleError: [true, "invalid-rule", "[0].name"],
  urlError: [true, "unsupported-scheme"],
};

// What a browser page or a worker offers a script: the web platform globals, and no process,
// require, Buffer or module. A vm context starts with only the language built-ins.
function webRealm(): object {
  const realm = createContext({
    URL,
    URLSearchParams,
    TextEncoder,
    TextDecoder,
    AbortController,
    AbortSignal,
    atob,
    btoa,
    structuredClone,
    queueMicrotask,
    setTimeout,
    clearTimeout,
    console,
  });
  const leaked = runInContext(
    `["process", "require", "Buffer", "module", "global", "__dirname"].filter((n) => typeof globalThis[n] !== "undefined")`,
    realm,
  ) as string[];
  assert.deepEqual([...leaked], [], "the realm must not offer Node globals");
  return realm;
}

async function runProbe(target: BundleTarget): Promise<{ code: string; result: unknown }> {
  const bundle = await bundleCore(PROBE, target);
  assert.deepEqual(bundle.imports, [], `the ${target} bundle still imports something`);
  assert.doesNotMatch(bundle.code, /\bnode:|__require\b|\brequire\(/, "a Node import survived in the bundle");
  // Bundlers get the core file by file ("default" condition); Node gets it as one module ("node").
  assert.ok(
    bundle.inputs.includes("dist/portable/core.js"),
    `canonurl/core resolved elsewhere: ${bundle.inputs[0]}`,
  );
  for (const input of bundle.inputs) assert.ok(!/node_modules\//.test(input), `the core pulled ${input}`);
  assert.ok(
    bundle.inputs.every((i) => !/^dist\/(resolve|cache|cli|node)\//.test(i)),
    `the core pulled a Node room: ${bundle.inputs.filter((i) => /^dist\/(resolve|cache|cli|node)\//.test(i))}`,
  );
  // Run the ES module bundle as a classic script: esbuild turns its exports into one global.
  const script = await transform(bundle.code, { format: "iife", globalName: "app", target: "es2022" });
  const realm = webRealm();
  runInContext(script.code, realm);
  return { code: bundle.code, result: JSON.parse(runInContext("app.probe()", realm) as string) };
}

describe("canonurl/core bundles and runs without Node", () => {
  for (const target of ["browser", "worker"] as const) {
    it(`for a ${target}`, { timeout: 60_000 }, async () => {
      const { result } = await runProbe(target);
      assert.deepEqual(result, EXPECTED);
    });
  }

  it("the Node entry does not bundle for a browser (the check can fail)", { timeout: 60_000 }, async () => {
    await assert.rejects(
      bundleCore('export { normalize } from "canonurl";', "browser"),
      (e: { errors?: { text: string }[] }) =>
        (e.errors ?? []).some((x) => /Could not resolve "node:/.test(x.text)),
    );
  });

  it("a bundler keeps only the modules an import uses: classify alone carries no rules", {
    timeout: 60_000,
  }, async () => {
    // Node loads the core as one module (dist/core-modules.js), whose top-level code a bundler
    // cannot drop; bundlers must see the files one by one, where sideEffects: false lets them
    // leave out what an import does not reach.
    const bundle = await bundleCore('export { classify } from "canonurl/core";', "browser");
    // The project's own app.js, then only files of the file-by-file tree.
    for (const input of bundle.inputs.filter((i) => !i.endsWith("/app.js")))
      assert.match(input, /^dist\/portable\//);
    // esbuild reads every file it walks (inputs); what it keeps is in the code.
    assert.doesNotMatch(bundle.code, /youtube-v3|class DeclaredRule|DeclaredRule = class/);
    const all = await bundleCore('export { classify, defaultRules } from "canonurl/core";', "browser");
    assert.match(all.code, /youtube-v3/, "the check can fail");
    assert.match(all.code, /DeclaredRule = class|class DeclaredRule/, "the check can fail");
  });

  it("normalize + explain + classify + defaultRules stay small", { timeout: 60_000 }, async (t) => {
    const gzipOf = async (names: string) => {
      const bundle = await bundleCore(`export { ${names} } from "canonurl/core";`, "browser", {
        minify: true,
      });
      const gzip = gzipSync(bundle.code, { level: 9 }).length;
      t.diagnostic(`${names}: minified ${bundle.code.length} B, gzip ${gzip} B`);
      return gzip;
    };
    // Size bounds, not timings (npm run bench, group bundle-size, prints the same figures). The
    // selection is the measure, with its target as the ceiling: 16,022 B gzip measured
    // against 16,384 B, so a stray dependency (tldts alone is ~40 KB gzip), a table spelled out
    // again or a few hundred bytes of new code fail here and need a cut elsewhere.
    // Issue 22 (identity) measured 18,528 B against main's 16,022 (esbuild metafile, bytes before
    // gzip): the session-id scanners +1,862 (shared with archive/), normalize.ts +1,578 (tracking
    // layers, route fragments, the host tier), the data +1,220 (sourced tiers with hosts, two new
    // rules), declared-rule.ts +990 (path scope), option validation +900, host-tracking +498. The
    // ceiling moved to 19 KiB (~930 B of headroom); winning the 16 KiB back needs a cut elsewhere.
    // Issue 22 part 2 (site rules, wrappers, ~190 host-scoped names) measured 21,376 B: the data
    // itself, chiefly host lists repeated per name (Amazon's 21 stores under 8 names, eBay's 8
    // under 6); emitting the host tier grouped by host list is the next cut. Issue 24's checked
    // fast path for canonical links (canonical-fast-path.ts, ~1,950 B minified) and the per-host
    // options memo brought the selection to 22,351 B measured. Issue 24's second pass (the text
    // lane and its readers, the fast path's repairs, classify's common form, the rule path's
    // tables) brought it to 24,222 B: ~350 B of headroom left under the 24 KiB ceiling, so the next
    // addition pays for itself (grouping the host tier by host list is the known cut). Issue 24's
    // third pass (the rule path: slash counts, a per-host candidate memo, the final pass's reuse
    // of the rewrite's query; paid for in part by the rewrite's own query loop going) measured
    // 24,534 B alone, and the text lane's authority reader for links the parser would only
    // respell (serializedAuthority, +~400 B, paid for in part by the host tier grouped by host
    // list, -50 B gzip, -4.5 KB minified) 24,571 B alone; merged, 24,872 B. The ceiling moved to
    // 25 KiB for them: they took identity from 4.20x to ~3.3x the bare parse on the golden corpus
    // and rfc3986 from 2.42x to ~2.1x on the seeded one (bench/README.md), and no cut of the same
    // size was found that keeps the user's rules checked in the core (path-pattern.ts's
    // messages are the known candidate, ~500 B by the rule pass's estimate, not measured: they would have to move to a check every caller
    // of the core still runs). Issue 24's rule text lane (rule-text-lane.ts, DeclaredRule's
    // rewriteText, the host's candidate rules in its facts) measured 25,737 B, +865 B on 24,872:
    // the ceiling moved to 26 KiB, the lead's call (issue 24's notes). On the golden corpus's
    // links it takes (81% of the rule links) it cut normalize's time to ~0.7x (bench/README.md,
    // "the rule text lane"). Merged with the fourth pass on unclaimed links (every host and
    // encodable character on the text, one authority record per text: +~420 B, rfc3986 on the
    // seeded corpus from ~2.0x to ~1.4x the bare parse): 26,239 B. Issue 24's fifth pass (the fast
    // path keeps route fragments and removes session ids itself, the tracking matcher's pair table
    // spares slicing and hashing most names, a trailing white-space check) measured 26,662 B,
    // +423 B: the ceiling moved to 27 KiB, the lead's call (the figures are in bench/README.md,
    // "fifth pass"). The rule text lane's unwrap and kept fragments (DeclaredRule's unwrapText and
    // keepsFragmentText, the lane's target reader: golden wrapper links from ~10x to ~5x their bare
    // parse, bench/README.md, "wrappers and kept fragments") measured 26,801 B alone, +562 B on
    // 26,239; merged with the fifth pass, 27,233 B (+571 B on its 26,662); 27,337 B after the review (one fragment reader, shared session names).
    // Issue 24's sixth pass (a short out-of-order query sorted on the text, sorted-query.ts; a
    // respelled authority's link read in place; a rule's patterns ruled out by their first
    // character, found once per link; captures written in place): 27,961 B, +624 B, over 27 KiB by 313: the ceiling moved to
    // 28 KiB, the lead's call. The changed links of both corpora took ~10% less time with the
    // sort on the text alone (bench/README.md, "the sixth pass"); the known cut is still
    // path-pattern.ts's messages.
    const selection = await gzipOf("classify, defaultRules, explain, normalize");
    assert.ok(selection <= 28 * 1024, `gzip ${selection} B`);
    assert.ok(selection > 4 * 1024, `gzip ${selection} B: the bundle lost its rules?`);
    // classify alone: 3,016 B measured (issue 24's common-form path, ~200 B, paid for by shorter
    // code off the hot path); the rules, the pipeline or the rule compiler would double it.
    const classifyOnly = await gzipOf("classify");
    assert.ok(classifyOnly <= 3 * 1024, `gzip ${classifyOnly} B`);
  });
});
