// The playground page's script: the pure core (classify, explain) runs here in the browser, so
// typing never waits on the network; only "resolve" calls the service, and only when it allows it.
// Bundled by scripts/build-playground.mjs; type-checked against the DOM by tsconfig.playground.json.
import { classify } from "../../classify/classify.js";
import { explain, normalize } from "../../pipeline/normalize.js";
import { changedSpan } from "./changed-span.js";
import { groupLinks } from "./group-links.js";
import { fragmentToState, type PlaygroundState, stateToFragment } from "./permalink.js";
import { formWarnings } from "./warnings.js";

// More lines than this are not drawn: a pasted log of 10,000 URLs would freeze the tab.
const MAX_LINES = 50;
// The "many links" view draws one row per link, not a card: 5,000 rows stay responsive.
const MAX_GROUPED = 5_000;

interface Capabilities {
  resolve: boolean;
  tokenRequired: boolean;
}

interface Hop {
  url: string;
  via: string;
  method: string;
  status: number | null;
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  // Text goes in as text nodes, never as markup: the input is untrusted by definition.
  node.append(...children);
  return node;
}

const input = byId<HTMLTextAreaElement>("urls");
const preset = byId<HTMLSelectElement>("preset");
const view = byId<HTMLSelectElement>("view");
const results = byId<HTMLElement>("results");
const permalink = byId<HTMLAnchorElement>("permalink");
const token = byId<HTMLInputElement>("token");
const status = byId<HTMLElement>("service");

let capabilities: Capabilities = { resolve: false, tokenRequired: false };

function stageRow(
  stage: string,
  url: string,
  previous: string | null,
  rule: string | undefined,
): HTMLElement {
  const cell = el("td", { class: "url" });
  if (previous === null || previous === url) {
    cell.append(url);
  } else {
    const span = changedSpan(previous, url);
    cell.append(span.head);
    if (span.removed !== "") cell.append(el("del", {}, span.removed));
    if (span.added !== "") cell.append(el("ins", {}, span.added));
    cell.append(span.tail);
  }
  const name = el("th", { scope: "row" }, stage);
  if (rule !== undefined) name.append(el("span", { class: "rule-tag" }, rule));
  return el(
    "tr",
    {
      class: `stage ${previous !== null && previous === url ? "unchanged" : "changed"}`,
      "data-stage": stage,
    },
    name,
    cell,
  );
}

function classifyBlock(line: string): HTMLElement {
  const form = classify(line);
  const facts = el(
    "dl",
    { class: "facts" },
    el("dt", {}, "class"),
    el("dd", { class: "form-class" }, form.class),
    el("dt", {}, "host"),
    el("dd", { class: "form-host" }, form.host === "" ? "(none)" : form.host),
    el("dt", {}, "scheme"),
    el("dd", {}, form.scheme === "" ? "(none)" : form.scheme),
    el("dt", {}, "port"),
    el("dd", {}, form.port === "" ? "(default)" : form.port),
  );
  const warnings = formWarnings(form);
  const list = el("ul", { class: "warnings" });
  for (const warning of warnings)
    list.append(el("li", { class: "warning", "data-warning": warning.id }, warning.text));
  return el(
    "section",
    { class: "classify" },
    el("h3", {}, "classify"),
    facts,
    warnings.length > 0 ? list : "",
  );
}

function renderChain(target: HTMLElement, line: string): void {
  target.replaceChildren(el("p", { class: "pending" }, "resolving…"));
  const headers: Record<string, string> = { "content-type": "application/x-ndjson" };
  if (token.value !== "") headers.authorization = `Bearer ${token.value}`;
  fetch("/v1/resolve", { method: "POST", headers, body: `${JSON.stringify({ url: line })}\n` })
    .then(async (response) => {
      const text = await response.text();
      if (!response.ok) {
        const error = (JSON.parse(text) as { error?: { message?: string } }).error;
        if (response.status === 403) capabilities = { ...capabilities, resolve: false };
        target.replaceChildren(el("p", { class: "error" }, `${response.status}: ${error?.message ?? text}`));
        return;
      }
      const outcome = JSON.parse(text.split("\n")[0] ?? "{}") as {
        ok: boolean;
        result?: { url: string; chain: Hop[]; verified: boolean };
        error?: { code: string; message: string };
      };
      if (!outcome.ok || outcome.result === undefined) {
        target.replaceChildren(
          el("p", { class: "error" }, `${outcome.error?.code ?? "error"}: ${outcome.error?.message ?? ""}`),
        );
        return;
      }
      const hops = el("ol", { class: "hops" });
      for (const hop of outcome.result.chain) {
        hops.append(
          el(
            "li",
            { class: "hop", "data-via": hop.via },
            el("span", { class: "hop-status" }, hop.status === null ? "—" : String(hop.status)),
            el("span", { class: "hop-via" }, `${hop.via} · ${hop.method}`),
            el("span", { class: "hop-url" }, hop.url),
          ),
        );
      }
      target.replaceChildren(
        el("h3", {}, "resolved"),
        hops,
        el(
          "p",
          { class: "resolved" },
          "canonical: ",
          el("output", { class: "resolved-url" }, outcome.result.url),
        ),
      );
    })
    .catch((error: unknown) => {
      target.replaceChildren(el("p", { class: "error" }, `the service did not answer: ${String(error)}`));
    });
}

function renderLine(line: string, options: { preset: PlaygroundState["preset"] }): HTMLElement {
  const card = el("article", { class: "result" }, el("h2", { class: "input" }, line));
  try {
    const e = explain(line, options);
    const stripped = el("ul", { class: "stripped" });
    for (const name of e.paramsStripped) stripped.append(el("li", {}, name));
    card.append(
      el(
        "dl",
        { class: "summary" },
        el("dt", {}, "canonical"),
        el("dd", {}, el("output", { class: "canonical" }, e.canonical)),
        el("dt", {}, "rule"),
        el("dd", { class: "rule" }, e.ruleApplied ?? "none"),
        el("dt", {}, "stripped"),
        el("dd", {}, e.paramsStripped.length === 0 ? el("span", { class: "none" }, "none") : stripped),
      ),
    );
    const rows = el("tbody");
    rows.append(stageRow("input", line, null, undefined));
    let previous = line;
    for (const step of e.steps) {
      rows.append(stageRow(step.stage, step.url, previous, step.rule));
      previous = step.url;
    }
    card.append(
      el("section", { class: "pipeline" }, el("h3", {}, "pipeline"), el("table", { class: "stages" }, rows)),
    );
  } catch (error) {
    card.append(
      el("p", { class: "error url-error" }, error instanceof Error ? error.message : String(error)),
    );
  }
  card.append(classifyBlock(line));
  const chain = el("div", { class: "chain" });
  const button = el("button", { type: "button", class: "resolve" }, "resolve");
  if (!capabilities.resolve) {
    button.disabled = true;
    button.title = "this service was started without --allow-resolve";
  }
  button.addEventListener("click", () => renderChain(chain, line));
  card.append(el("div", { class: "actions" }, button), chain);
  return card;
}

function currentState(): PlaygroundState {
  return {
    text: input.value,
    preset: preset.value === "rfc3986" ? "rfc3986" : "identity",
    view: view.value === "groups" ? "groups" : "each",
  };
}

// "Many links": the pasted links grouped by key, so a person sees what was united (and checks
// that nothing merged that should not have) before deduping a whole file with --groups.
function renderGroups(
  lines: readonly string[],
  options: { preset: PlaygroundState["preset"] },
): HTMLElement[] {
  const grouped = groupLinks(lines, (link) => normalize(link, options), MAX_GROUPED);
  const read = grouped.groups.reduce((n, g) => n + g.links.length, 0) + grouped.failed.length;
  const united = grouped.groups.filter((g) => g.links.length > 1).length;
  const out: HTMLElement[] = [
    el(
      "p",
      { class: "group-summary" },
      `${read} links → ${grouped.groups.length} keys; ${united} ${united === 1 ? "key unites" : "keys unite"} several links`,
    ),
  ];
  for (const group of grouped.groups) {
    const list = el("ul", { class: "group-links" });
    for (const link of group.links) list.append(el("li", {}, link));
    out.push(
      el(
        "article",
        {
          class: `group ${group.links.length > 1 ? "united" : "single"}`,
          "data-count": String(group.links.length),
        },
        el(
          "h2",
          { class: "group-key" },
          el("output", {}, group.key),
          el("span", { class: "group-count" }, `× ${group.links.length}`),
        ),
        list,
      ),
    );
  }
  if (grouped.failed.length > 0) {
    const list = el("ul", { class: "group-failed" });
    for (const f of grouped.failed) list.append(el("li", {}, el("code", {}, f.link), ` ${f.message}`));
    out.push(el("section", { class: "group failed" }, el("h2", {}, "not read"), list));
  }
  if (grouped.skipped > 0) out.push(el("p", { class: "more" }, `${grouped.skipped} more lines not grouped`));
  return out;
}

function render(): void {
  const state = currentState();
  const fragment = stateToFragment(state);
  permalink.href = fragment;
  history.replaceState(null, "", state.text === "" ? location.pathname : fragment);
  const lines = state.text
    .split("\n")
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line.trim() !== "");
  document.body.dataset.view = state.view ?? "each";
  if (state.view === "groups") {
    results.replaceChildren(...renderGroups(lines, { preset: state.preset }));
    return;
  }
  const cards = lines.slice(0, MAX_LINES).map((line) => renderLine(line, { preset: state.preset }));
  if (lines.length > MAX_LINES) {
    cards.push(el("p", { class: "more" }, `${lines.length - MAX_LINES} more lines not shown`));
  }
  results.replaceChildren(...cards);
}

let timer: ReturnType<typeof setTimeout> | undefined;
function scheduleRender(): void {
  clearTimeout(timer);
  timer = setTimeout(render, 60);
}

function loadFromFragment(): void {
  const state = fragmentToState(location.hash);
  input.value = state.text;
  preset.value = state.preset;
  view.value = state.view ?? "each";
}

input.addEventListener("input", scheduleRender);
preset.addEventListener("change", render);
view.addEventListener("change", render);
window.addEventListener("hashchange", () => {
  loadFromFragment();
  render();
});

loadFromFragment();
render();
fetch("/v1/capabilities")
  .then((response) => (response.ok ? (response.json() as Promise<Capabilities>) : null))
  .then((answer) => {
    if (answer === null) return;
    capabilities = answer;
    status.textContent = answer.resolve
      ? `resolve: enabled${answer.tokenRequired ? " (token required)" : ""}`
      : "resolve: off (start with --allow-resolve)";
    token.hidden = !answer.tokenRequired;
    document.body.dataset.resolve = String(answer.resolve);
    render();
  })
  .catch(() => {
    status.textContent = "offline: no service";
  });
