import { classify } from "../classify/index.js";
import type { Client } from "../resolve/client.js";
import type { Outcome } from "../resolve/types.js";
import { failureLine, timeoutLine } from "./normalize-lines.js";

function outcomeLine(outcome: Outcome): string {
  if (!outcome.ok) return failureLine(outcome.index, outcome.input, outcome.error);
  return `${JSON.stringify({ index: outcome.index, input: outcome.input, ok: true, result: outcome.result })}\n`;
}

// Logs say which host was asked, never the path or query: those carry tokens and personal data.
function logLine(outcome: Outcome): string {
  const host = classify(outcome.input).host || "-";
  if (!outcome.ok) return `resolve host=${host} ok=false code=${outcome.error.code}`;
  return `resolve host=${host} ok=true status=${outcome.result.status} hops=${outcome.result.chain.length}`;
}

/**
 * The lines of a POST /v1/resolve answer: one `Outcome` per input, written in input order as soon
 * as every earlier one is done (resolutions finish out of order; a reorder buffer holds the early
 * ones, at most the batch, which the body limit bounds). When `signal` aborts, the inputs not yet
 * written answer with what finished or `timeout`. Stopping the iteration (the client went away)
 * aborts the resolutions in flight. The client is the service's, shared with other requests: it
 * is not closed here.
 *
 * @example
 * ```ts
 * for await (const chunk of resolveLines(urls, createClient({ allowedPorts: [8080] }), 8, signal, console.error)) process.stdout.write(chunk);
 * ```
 */
export async function* resolveLines(
  urls: readonly string[],
  client: Client,
  concurrency: number,
  signal: AbortSignal,
  log: (line: string) => void,
): AsyncGenerator<string> {
  const waiting = new Map<number, Outcome>();
  let next = 0;
  try {
    for await (const outcome of client.resolveMany(urls, { concurrency, signal })) {
      log(logLine(outcome));
      waiting.set(outcome.index, outcome);
      let text = "";
      for (let ready = waiting.get(next); ready !== undefined; ready = waiting.get(next)) {
        waiting.delete(next);
        next++;
        text += outcomeLine(ready);
      }
      if (text !== "") yield text;
    }
  } catch (error) {
    // resolveMany rejects only when `signal` aborted: the deadline passed or the client left.
    if (!signal.aborted) throw error;
  }
  let text = "";
  for (; next < urls.length; next++) {
    const done = waiting.get(next);
    text += done === undefined ? timeoutLine(next, urls[next] as string) : outcomeLine(done);
  }
  if (text !== "") yield text;
}
