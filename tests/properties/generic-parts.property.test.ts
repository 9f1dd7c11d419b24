import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { genericPass } from "../../src/pipeline/generic-pass.js";
import { resolveNormalizeOptions } from "../../src/pipeline/resolve-normalize-options.js";
import { parseInput } from "../../src/url/parse-input.js";
import { serializedUrl } from "../../src/url/serialized-host.js";
import { fuzzRuns } from "../helpers/fuzz-runs.js";
import { hostileUrl, nearSerialized, urlish } from "../helpers/url-arbitraries.js";

const SEED = 20261203;
const RUNS = fuzzRuns(4000);
const userinfo = fc.constantFrom("", "", "user@", "User:p%61ss@", "a%20b:@", "x:y%zz@");

// The pipeline hands declarative rules the generic pass's parts instead of parsing generic.href
// again; that is only sound if the parse would give exactly those parts back.
describe("generic pass parts (fast-check, fixed seed)", () => {
  it("equal the getters of new URL(href) for every preset", () => {
    const presets = [
      resolveNormalizeOptions(undefined),
      resolveNormalizeOptions({ preset: "rfc3986" }),
      resolveNormalizeOptions({ trailingSlash: "add" }),
    ];
    const reached = { userinfo: 0, port: 0, search: 0, escapes: 0, compared: 0 };
    fc.assert(
      fc.property(urlish, userinfo, fc.constantFrom(...presets), (raw, user, options) => {
        const input = raw.includes("://") ? raw.replace("://", `://${user}`) : raw;
        let url: URL;
        try {
          url = parseInput(input, "http").url;
        } catch {
          return;
        }
        const generic = genericPass(url, options);
        const again = new URL(generic.href);
        reached.compared++;
        if (generic.username !== "") reached.userinfo++;
        if (generic.port !== "") reached.port++;
        if (generic.search !== "") reached.search++;
        if (generic.pathname.includes("%")) reached.escapes++;
        for (const key of [
          "protocol",
          "username",
          "password",
          "hostname",
          "port",
          "pathname",
          "search",
        ] as const)
          assert.equal(generic[key], again[key], `${key} of ${JSON.stringify(input)} → ${generic.href}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 20, `${branch}: only ${count} of ${RUNS} runs reached it`);
  });

  // genericPass skips the percent-encoding normalization of a text's path, query and fragment
  // when it holds no "%" (serializedUrl admits nothing else that needs work): the parse is the
  // oracle, with every field compared.
  it("give on a text serializedUrl reads what they give on its parse", () => {
    const presets = [
      resolveNormalizeOptions(undefined),
      resolveNormalizeOptions({ preset: "rfc3986" }),
      resolveNormalizeOptions({ stripFragment: false, removeSessionIds: false }),
    ];
    const reached = { plain: 0, escaped: 0, queryEscaped: 0, fragment: 0 };
    const piece = fc.constantFrom(
      "x",
      "",
      "%7e",
      "%7E",
      "%2F",
      "%2f",
      "%zz",
      "%",
      "%41",
      ".",
      "%2e",
      "a=b",
      "&",
    );
    const escaped = fc
      .tuple(
        fc.array(piece, { maxLength: 4 }),
        fc.array(piece, { maxLength: 3 }),
        fc.array(piece, { maxLength: 2 }),
      )
      .map(([path, query, fragment]) => {
        const q = query.length > 0 ? `?${query.join("")}` : "";
        const f = fragment.length > 0 ? `#${fragment.join("")}` : "";
        return `https://a.test/${path.join("/")}${q}${f}`;
      });
    fc.assert(
      fc.property(
        fc.oneof(escaped, nearSerialized, urlish, hostileUrl),
        fc.constantFrom(...presets),
        (input, options) => {
          const text = serializedUrl(input);
          if (text === undefined) return;
          const fromText = genericPass(text, options);
          const fromUrl = genericPass(new URL(input), options);
          assert.deepEqual(fromText, fromUrl, JSON.stringify(input));
          if (!input.includes("%")) reached.plain++;
          else if (text.search.includes("%")) reached.queryEscaped++;
          else reached.escaped++;
          if (text.hash.length > 1) reached.fragment++;
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    for (const [branch, count] of Object.entries(reached))
      assert.ok(count > RUNS / 100, `${branch}: only ${count} of ${RUNS} runs reached it`);
  });
});
