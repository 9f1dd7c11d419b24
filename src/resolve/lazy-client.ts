// The resolver as the Node entry exports it: the same API, with the engine (undici, htmlparser2,
// tldts) imported on first use instead of at `import("canonurl")`, so a program that only
// normalizes never loads it (measured on Node 20: the engine's import graph costs ~0.3 s and
// ~30 MB RSS). Option validation stays synchronous and engine-free: a bad option still throws a
// TypeError at construction.

import {
  checkBatchArgument,
  checkConcurrency,
  checkSignalArgument,
  checkUrlArgument,
} from "./call-arguments.js";
import type { Client } from "./client.js";
import { resolveClientOptions } from "./client-options.js";
import { DEFAULT_CONCURRENCY } from "./concurrency-option.js";
import type { PinnedTransport, PinnedTransportOptions } from "./http/pinned-transport.js";
import type { TransportRequest, TransportResponse } from "./http/transport.js";
import type { ClientOptions, Outcome, Resolution } from "./types.js";

/**
 * Creates a {@link Client}. Every option is validated here (an unknown key or a bad value throws a
 * `TypeError` naming it) and frozen, so one client can be shared by a whole program. The network
 * engine loads on the first `resolve`, `canonicalize` or `resolveMany`.
 *
 * @example
 * ```ts
 * const client = createClient({ totalTimeoutMs: 10_000, canonicalLinks: "same-site" });
 * const { url, chain } = await client.resolve("http://example.com/");
 * ```
 */
export function createClient(options?: ClientOptions): Client {
  const resolved = resolveClientOptions(options);
  let engine: Promise<Client> | null = null;
  let closed: Promise<void> | null = null;

  // A client closed before its engine ever loaded still answers like a closed client: the engine
  // is created closed, so every later call fails the way it would have.
  const load = (): Promise<Client> =>
    (engine ??= import("./client.js").then(async ({ createResolvedClient }) => {
      const client = createResolvedClient(resolved);
      if (closed !== null) await client.close();
      return client;
    }));

  return Object.freeze({
    options: resolved.given,
    async resolve(url: string, init?: { signal?: AbortSignal }): Promise<Resolution> {
      return (await load()).resolve(url, init);
    },
    async canonicalize(url: string, init?: { signal?: AbortSignal }): Promise<string> {
      return (await load()).canonicalize(url, init);
    },
    resolveMany(
      urls: Iterable<string> | AsyncIterable<string>,
      init?: { concurrency?: number; signal?: AbortSignal },
    ): AsyncIterable<Outcome> {
      // The same checks as the engine's resolveMany, here, so a bad argument throws at the call and
      // not at the first iteration after the engine loaded.
      checkBatchArgument(urls);
      const concurrency = checkConcurrency(init?.concurrency, DEFAULT_CONCURRENCY);
      const signal = init?.signal;
      checkSignalArgument(signal);
      return (async function* () {
        const client = await load();
        yield* client.resolveMany(urls, signal === undefined ? { concurrency } : { concurrency, signal });
      })();
    },
    async invalidate(url: string): Promise<void> {
      checkUrlArgument(url);
      // Without a cache there is nothing to forget, and no reason to load the engine.
      if (resolved.cache === null) return;
      return (await load()).invalidate(url);
    },
    close(): Promise<void> {
      closed ??= engine === null ? Promise.resolve() : engine.then((client) => client.close());
      return closed;
    },
  });
}

/**
 * The default transport: undici with the connection pinned to the validated addresses. This shell
 * returns at once and imports undici on the first `request`; `socketsOpened` is 0 until then.
 *
 * @example
 * ```ts
 * const transport = createPinnedTransport();
 * transport.socketsOpened; // 0
 * ```
 */
export function createPinnedTransport(options: PinnedTransportOptions = {}): PinnedTransport {
  let real: PinnedTransport | undefined;
  let loading: Promise<PinnedTransport> | undefined;
  let closed = false;
  const load = (): Promise<PinnedTransport> =>
    (loading ??= import("./http/pinned-transport.js").then((m) => {
      const transport = m.createPinnedTransport(options);
      // Closed before first use: its close() marks it closed synchronously, so requests reject.
      if (closed) void transport.close();
      real = transport;
      return transport;
    }));
  return {
    get socketsOpened() {
      return real?.socketsOpened ?? 0;
    },
    async request(request: TransportRequest): Promise<TransportResponse> {
      return (await load()).request(request);
    },
    close(): Promise<void> {
      closed = true;
      return loading === undefined ? Promise.resolve() : loading.then((transport) => transport.close());
    },
  };
}
