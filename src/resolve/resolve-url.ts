import { setTimeout as sleep } from "node:timers/promises";
import type { CanonError } from "../errors/canon-error.js";
import { FetchError } from "../errors/fetch-error.js";
import { isSecurityError } from "../errors/guards.js";
import { RedirectError } from "../errors/redirect-error.js";
import { SecurityError } from "../errors/security-error.js";
import { canonicalWith, normalizeResolved } from "../pipeline/normalize.js";
import { parseInput } from "../url/parse-input.js";
import { checkSignalArgument, checkUrlArgument } from "./call-arguments.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { abortableIterable, createDeadline, type Deadline } from "./deadline.js";
import { findHtmlCanonical } from "./discover/html-canonical.js";
import { findLinkCanonical } from "./discover/link-header.js";
import { resolveLocation } from "./discover/location.js";
import { isSameSite } from "./discover/same-site.js";
import type { DecidingResponse } from "./freshness.js";
import { type ResolvedNetPolicy, resolveDestination } from "./guard/destination.js";
import { isClearlyNotHtml, isHtmlMediaType } from "./http/media-type.js";
import { decodeBody } from "./http/read-head.js";
import { retryAfterMs } from "./http/retry-after.js";
import { toCanonError } from "./http/to-canon-error.js";
import type { Transport, TransportResponse } from "./http/transport.js";
import type { Hop, Resolution, Trace } from "./types.js";

/** What one resolution runs with: the client's validated options, its transport and net policy. */
export interface ResolveContext {
  readonly options: ResolvedClientOptions;
  readonly transport: Transport;
  readonly policy: ResolvedNetPolicy;
}

type Via = Hop["via"];

/** The next URL to fetch, in hop form; `parsed` is a URL whose href it is, when one is at hand. */
interface HopTarget {
  url: string;
  via: Via;
  parsed?: URL | undefined;
}

/** A 2xx response that stands for a URL: what a Resolution reports as confirming it. */
interface Confirmed {
  url: string;
  via: Via;
  status: number;
  headers: Record<string, string>;
  /** The request URL it was confirmed for (href `url`), so the final pass need not parse it again. */
  parsed?: URL;
}

type HopOutcome =
  | { kind: "redirect"; from: URL; target: URL }
  | { kind: "ok"; confirmed: Confirmed; canonical: string | null }
  | { kind: "get" };

// RFC 9110 §15.4: the redirect statuses with a Location to follow (300 and 304 carry none).
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
// Servers that refuse HEAD outright answer these (RFC 9110 §9.3.2 says HEAD should be supported);
// one GET decides instead.
const HEAD_REFUSED_STATUSES: ReadonlySet<number> = new Set([403, 405, 501]);

// RFC 6585 §4 and RFC 9110 §15.6.4: the statuses whose Retry-After says when to come back.
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);
// Why a 429 or 503 was not retried (or failed again), for the http-status message.
const retryNotes = new WeakMap<TransportResponse, string>();

// A server's field goes into an error message: bounded, whatever the server sent.
function showField(field: string | readonly string[]): string {
  const text = typeof field === "string" ? field : field.join(", ");
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/** Per-resolution state: the chain, the visited set and the hints that were dropped. */
class Run {
  readonly chain: Hop[] = [];
  readonly visited = new Set<string>();
  readonly droppedHints: { url: string; reason: string }[] = [];
  readonly started = performance.now();

  constructor(
    readonly ctx: ResolveContext,
    readonly input: string,
    readonly deadline: Deadline,
    /** Receives every response that decided the outcome, when a cache needs their freshness. */
    readonly responses: DecidingResponse[] | undefined,
  ) {}

  get options(): ResolvedClientOptions {
    return this.ctx.options;
  }

  /** Whether a logger listens: callers skip building log data nobody reads (the default). */
  get logging(): boolean {
    return this.options.logger !== undefined;
  }

  log(message: string, data?: object): void {
    try {
      this.options.logger?.debug(message, data);
    } catch {
      // A logger is an observer, like a hook: its failure must not fail the resolution it logs.
    }
  }

  drop(url: string, reason: string): void {
    if (this.droppedHints.some((hint) => hint.url === url && hint.reason === reason)) return;
    this.droppedHints.push({ url, reason });
    this.log("canonical hint dropped", { url, reason });
  }

  /** Every failure leaves as a CanonError; an abort becomes the deadline's TimeoutError. */
  toError(error: unknown, url: string): CanonError {
    if (this.deadline.signal.aborted) return this.deadline.toError(url);
    return toCanonError(error, url);
  }
}

function callHook(run: Run, name: string, call: () => void): void {
  try {
    call();
  } catch (error) {
    // A hook is an observer: its failure must not change the resolution it observes.
    run.log(`hook ${name} threw`, { error: String(error) });
  }
}

function flattenHeaders(headers: TransportResponse["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = typeof value === "string" ? value : value.join(", ");
  return flat;
}

/** Hop form: syntactic (rfc3986) normalization, the key of the visited set and of the chain. */
function normalizeHop(run: Run, url: string | URL): string {
  return canonicalWith(url, run.options.hopNormalize);
}

// A URL already parsed travels with its hop form when normalizing left it as it was (the common
// case), so fetching that hop does not parse the same string again.
function hopTarget(run: Run, url: URL, via: Via): HopTarget {
  const hop = normalizeHop(run, url);
  return { url: hop, via, parsed: hop === url.href ? url : undefined };
}

async function sendOnce(
  run: Run,
  url: URL,
  method: "HEAD" | "GET",
  addresses: readonly string[],
): Promise<TransportResponse> {
  const { options } = run;
  const signal = run.deadline.signal;
  if (run.logging) run.log("request", { method, url: url.href, addresses });
  const pending = run.ctx.transport.request({
    url,
    method,
    headers: options.headers,
    addresses,
    signal,
    connectTimeoutMs: options.connectTimeoutMs,
    readTimeoutMs: options.readTimeoutMs,
    writeTimeoutMs: options.writeTimeoutMs,
  });
  let response: TransportResponse;
  try {
    response = await run.deadline.race(pending);
  } catch (error) {
    // A transport that answers after the deadline must still give its connection back.
    pending.then((late) => late.dispose()).catch(() => {});
    throw error;
  }
  if (run.logging) run.log("response", { method, url: url.href, status: response.status });
  return response;
}

/**
 * One request, retried once when a 429 or 503 asks for it with a `Retry-After` (RFC 9110 §10.2.3)
 * that fits `maxRetryAfterMs` and the time left; the wait holds no host slot. A 429 or 503 it does
 * not retry carries a note saying why, which the `http-status` error message shows.
 */
async function send(
  run: Run,
  url: URL,
  method: "HEAD" | "GET",
  addresses: readonly string[],
): Promise<TransportResponse> {
  const first = await sendOnce(run, url, method, addresses);
  if (!RETRY_STATUSES.has(first.status)) return first;
  const field = first.headers["retry-after"];
  if (field === undefined) return first;
  const wait = retryAfterMs(field, Date.now());
  const shown = showField(field);
  const left = run.options.totalTimeoutMs - (performance.now() - run.started);
  let refused: string | null = null;
  if (wait === null) refused = "not a delay or an HTTP date";
  else if (wait > run.options.maxRetryAfterMs)
    refused = `over maxRetryAfterMs ${run.options.maxRetryAfterMs}`;
  else if (wait >= left) refused = `past the deadline, ${Math.max(0, Math.round(left))} ms left`;
  if (refused !== null || wait === null) {
    retryNotes.set(first, `Retry-After: ${shown}, not retried: ${refused}`);
    return first;
  }
  await first.dispose();
  run.log("retry after", { method, url: url.href, status: first.status, waitMs: wait });
  await sleep(wait, undefined, { signal: run.deadline.signal });
  const second = await sendOnce(run, url, method, addresses);
  if (RETRY_STATUSES.has(second.status)) {
    retryNotes.set(second, `retried once after Retry-After: ${shown}`);
  }
  return second;
}

/**
 * A declared canonical, screened before it may be followed: http(s) only, normalized, same-site
 * when asked, no https → http unless allowed. Returns the hop form, or `null` (recorded as dropped).
 */
async function screenCanonical(run: Run, declared: string | null, current: URL): Promise<string | null> {
  if (declared === null) return null;
  const target = URL.parse(declared);
  if (target === null || (target.protocol !== "http:" && target.protocol !== "https:")) {
    run.drop(declared, "unsupported-scheme");
    return null;
  }
  let hop: string;
  try {
    hop = normalizeHop(run, target);
  } catch {
    run.drop(declared, "invalid-url");
    return null;
  }
  if (hop === current.href) return hop;
  if (run.options.canonicalLinks === "same-site" && !(await isSameSite(current, target))) {
    run.drop(hop, "cross-site");
    return null;
  }
  if (current.protocol === "https:" && target.protocol === "http:" && !run.options.allowDowngrade) {
    run.drop(hop, "scheme-downgrade");
    return null;
  }
  return hop;
}

/**
 * Decides what one response means; reads the body only for a GET 2xx HTML response. Every other
 * response is disposed unread: closed, not drained. A HEAD response has no body (RFC 9110 §9.3.2)
 * and the pinned transport has finished it before handing its head over, so disposing it keeps
 * the connection for the next request.
 */
async function inspect(
  run: Run,
  url: URL,
  via: Via,
  method: "HEAD" | "GET",
  response: TransportResponse,
): Promise<HopOutcome> {
  const { status, headers } = response;
  run.responses?.push({ url: url.href, method, status, headers: headers as DecidingResponse["headers"] });
  if (REDIRECT_STATUSES.has(status)) {
    await response.dispose();
    return { kind: "redirect", from: url, target: resolveLocation(headers.location, url) };
  }
  if (status < 200 || status > 299) {
    await response.dispose();
    const note = retryNotes.get(response);
    throw new FetchError(
      "http-status",
      `HTTP ${status} for ${method} ${url.href}${note === undefined ? "" : ` (${note})`}`,
      {
        url: url.href,
        status,
      },
    );
  }
  const confirmed: Confirmed = { url: url.href, via, status, headers: flattenHeaders(headers), parsed: url };
  if (run.options.canonicalLinks === "off") {
    await response.dispose();
    return { kind: "ok", confirmed, canonical: null };
  }
  // The header wins over the document (RFC 8288 links are the server's own statement).
  const declaredLink = findLinkCanonical(headers.link, url);
  // Most responses declare no canonical: no await then (screening is async for tldts' lazy load).
  const fromHeader = declaredLink === null ? null : await screenCanonical(run, declaredLink, url);
  if (fromHeader !== null) {
    await response.dispose();
    run.log("canonical from Link header", { url: fromHeader });
    return { kind: "ok", confirmed, canonical: fromHeader };
  }
  const contentType = headers["content-type"];
  if (method === "HEAD") {
    await response.dispose();
    return isClearlyNotHtml(contentType) ? { kind: "ok", confirmed, canonical: null } : { kind: "get" };
  }
  if (!isHtmlMediaType(contentType)) {
    await response.dispose();
    return { kind: "ok", confirmed, canonical: null };
  }
  try {
    const bytes = decodeBody(
      abortableIterable(response.body, run.deadline.signal),
      headers["content-encoding"],
    );
    if (bytes === null) {
      run.log("unsupported content-encoding, head not read", {
        url: url.href,
        encoding: headers["content-encoding"],
      });
      return { kind: "ok", confirmed, canonical: null };
    }
    const declared = await findHtmlCanonical(bytes, url, run.options.maxBodyBytes);
    const fromHtml = await screenCanonical(run, declared, url);
    if (fromHtml !== null) run.log("canonical from HTML head", { url: fromHtml });
    return { kind: "ok", confirmed, canonical: fromHtml };
  } finally {
    await response.dispose();
  }
}

/** One hop: destination check, HEAD, at most one GET; records the hop with its last request. */
async function fetchHop(run: Run, target: HopTarget): Promise<HopOutcome> {
  const url = target.parsed ?? new URL(target.url);
  const hop: Hop = { url: target.url, via: target.via, method: "HEAD", status: null };
  let recorded = false;
  try {
    // resolveDestination races its one await (the resolver) against the deadline itself.
    const addresses = await resolveDestination(url, run.ctx.policy, run.deadline.signal, run.deadline.race);
    run.chain.push(hop);
    recorded = true;
    let response = await send(run, url, "HEAD", addresses);
    hop.status = response.status;
    if (HEAD_REFUSED_STATUSES.has(response.status)) {
      await response.dispose();
      hop.method = "GET";
      hop.status = null;
      response = await send(run, url, "GET", addresses);
      hop.status = response.status;
    }
    let outcome = await inspect(run, url, target.via, hop.method, response);
    if (outcome.kind === "get") {
      hop.method = "GET";
      hop.status = null;
      response = await send(run, url, "GET", addresses);
      hop.status = response.status;
      outcome = await inspect(run, url, target.via, "GET", response);
    }
    return outcome;
  } catch (error) {
    throw run.toError(error, target.url);
  } finally {
    const { onHop } = run.options.hooks;
    if (recorded && onHop !== undefined) callHook(run, "onHop", () => onHop({ ...hop }));
  }
}

/** The next URL a redirect leads to, with the https → http policy (RFC 9110 §15.4 leaves it to us). */
function redirectTarget(run: Run, from: URL, target: URL): HopTarget {
  if (from.protocol === "https:" && target.protocol === "http:" && !run.options.allowDowngrade) {
    throw new SecurityError(
      "scheme-downgrade",
      `redirect from https to http refused: ${from.href} -> ${target.href}`,
      {
        url: target.href,
      },
    );
  }
  try {
    return hopTarget(run, target, "redirect");
  } catch (cause) {
    throw new RedirectError("invalid-location", `unusable Location ${target.href}: ${from.href}`, {
      url: from.href,
      cause,
    });
  }
}

function finish(run: Run, confirmed: Confirmed, verified: boolean): Resolution {
  const { options } = run;
  let explanation: ReturnType<typeof normalizeResolved>;
  // The parsed request URL stands in for the string unless something (a custom transport) changed it.
  const parsed = confirmed.parsed;
  try {
    explanation = normalizeResolved(
      parsed !== undefined && parsed.href === confirmed.url ? parsed : confirmed.url,
      options.normalize,
    );
  } catch (error) {
    throw run.toError(error, confirmed.url);
  }
  const { afterGeneric, afterRule: afterDomain } = explanation;
  const durationMs = performance.now() - run.started;
  // The Run ends here, so its chain is the Resolution's own; hooks get copies of what they see.
  const chain = run.chain;
  const { onRuleApplied, onComplete } = options.hooks;
  if (explanation.ruleApplied !== null && onRuleApplied !== undefined) {
    const rule = explanation.ruleApplied;
    callHook(run, "onRuleApplied", () => onRuleApplied(rule, afterGeneric, afterDomain));
  }
  if (onComplete !== undefined) {
    const trace: Trace = {
      input: run.input,
      afterRedirects: confirmed.url,
      afterGeneric,
      afterDomain,
      final: explanation.canonical,
      chain: chain.map((hop) => ({ ...hop })),
      ruleApplied: explanation.ruleApplied,
      droppedHints: run.droppedHints.map((hint) => ({ ...hint })),
      durationMs,
    };
    callHook(run, "onComplete", () => onComplete(trace));
  }
  return {
    url: explanation.canonical,
    original: run.input,
    source: confirmed.via,
    chain,
    status: confirmed.status,
    headers: confirmed.headers,
    ruleApplied: explanation.ruleApplied,
    paramsStripped: [...explanation.stripped],
    verified,
    durationMs,
    cached: false,
    stale: false,
  };
}

async function runHops(run: Run, initial: HopTarget): Promise<Resolution> {
  const { maxHops } = run.options;
  let next: HopTarget = initial;
  let lastGood: Confirmed | null = null;
  // Set while a declared canonical (or a redirect it led to) is being fetched.
  let declared: { url: string; by: Confirmed } | null = null;
  let follows = 0;
  for (;;) {
    run.visited.add(next.url);
    let target: HopTarget;
    try {
      const outcome = await fetchHop(run, next);
      if (outcome.kind === "redirect") {
        target = redirectTarget(run, outcome.from, outcome.target);
      } else if (outcome.kind === "ok") {
        lastGood = outcome.confirmed;
        declared = null;
        // A canonical that normalizes to this very URL confirms it: no further request.
        if (outcome.canonical === null || outcome.canonical === next.url)
          return finish(run, outcome.confirmed, true);
        target = { url: outcome.canonical, via: "canonical-link" };
        declared = { url: outcome.canonical, by: outcome.confirmed };
      } else {
        throw new Error("unreachable: a GET never asks for another GET");
      }
    } catch (caught) {
      const error = run.toError(caught, next.url);
      if (declared === null || run.deadline.signal.aborted) throw error;
      if (isSecurityError(error)) {
        // The declared target breaks the policy: the hint is dropped and never returned.
        run.drop(declared.url, error.code);
        return finish(run, declared.by, true);
      }
      // Any other failure (status, network, TLS, a per-phase timeout, an unusable redirect) leaves
      // the declaration standing, confirmed only by the response that made it.
      run.log("declared canonical could not be fetched", { url: declared.url, code: error.code });
      return finish(
        run,
        {
          url: declared.url,
          via: "canonical-link",
          status: declared.by.status,
          headers: declared.by.headers,
        },
        false,
      );
    }
    if (run.visited.has(target.url)) {
      if (lastGood !== null) return finish(run, lastGood, true);
      throw new RedirectError("redirect-loop", `redirect loop at ${target.url} (from ${run.input})`, {
        url: target.url,
      });
    }
    if (follows >= maxHops) {
      if (lastGood !== null) return finish(run, lastGood, true);
      throw new RedirectError("too-many-hops", `more than ${maxHops} hops from ${run.input}`, {
        url: target.url,
      });
    }
    follows++;
    next = target;
  }
}

/**
 * The hop loop: resolves one URL to its canonical form over the network under one deadline.
 * Input is trimmed, given `http://` when it has no scheme and normalized (rfc3986) before the
 * first request; every hop is checked (URL → DNS → address policy) before it is fetched; redirects
 * and followed canonical links share `maxHops` and one visited set. The final URL goes through the
 * chosen normalize preset. A `url` that is not a string, or a `signal` that is not an
 * `AbortSignal`, rejects with a `TypeError` before anything runs; a caller's abort rejects with
 * `AbortError` (`aborted`), the total timeout with `TimeoutError` (`timeout`).
 *
 * @example
 * ```ts
 * const resolution = await resolveUrl("example.com/a", context);
 * resolution.chain; // [{ url: "http://example.com/a", via: "initial", method: "HEAD", status: 301 }, ...]
 * ```
 */
export async function resolveUrl(
  input: string,
  ctx: ResolveContext,
  signal?: AbortSignal,
  responses?: DecidingResponse[],
): Promise<Resolution> {
  // Arguments first: a wrong type is the caller's TypeError, never a failure from inside.
  checkUrlArgument(input);
  checkSignalArgument(signal);
  const deadline = createDeadline(ctx.options.totalTimeoutMs, signal);
  const run = new Run(ctx, input, deadline, responses);
  try {
    const { url } = parseInput(input.trim(), ctx.options.hopNormalize.defaultScheme);
    return await runHops(run, hopTarget(run, url, "initial"));
  } catch (error) {
    throw run.toError(error, input);
  } finally {
    deadline.dispose();
  }
}
