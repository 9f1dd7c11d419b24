import { followAbort } from "./abort-fanout.js";
import type { Transport, TransportRequest, TransportResponse } from "./http/transport.js";

/** One request waiting for a slot on its host. */
interface Waiter {
  grant(): void;
  /** Set when its deadline fired while it waited: a release passes over it. */
  cancelled: boolean;
}

/** One host name's slots: requests holding one, and the requests waiting in arrival order. */
interface HostSlots {
  active: number;
  waiting: Waiter[];
  /** Index of the first live entry of `waiting`: a shift per grant would copy the whole queue. */
  head: number;
}

/**
 * Politeness: wraps `transport` so that no more than `limit` requests to one host name are in flight
 * at once. A request holds its host's slot from the moment it is sent until its response is
 * disposed (for a GET whose head is read, that is after the read), so a slow page keeps its slot
 * while it streams. Further requests to that host wait in arrival order; one whose deadline fires
 * while it waits leaves the queue with the deadline's reason and takes no slot. Idle hosts hold no
 * memory. `close` is the wrapped transport's.
 *
 * @example
 * ```ts
 * const polite = limitHostConcurrency(createPinnedTransport(), 6);
 * const res = await polite.request(request); // waits while 6 requests to request.url.hostname run
 * await res.dispose();                        // gives the slot to the next one
 * ```
 */
export function limitHostConcurrency(transport: Transport, limit: number): Transport {
  const hosts = new Map<string, HostSlots>();

  const release = (host: string, slots: HostSlots): void => {
    slots.active--;
    while (slots.head < slots.waiting.length) {
      const next = slots.waiting[slots.head] as Waiter;
      slots.head++;
      if (next.cancelled) continue;
      slots.active++;
      next.grant();
      break;
    }
    if (slots.head > 0 && slots.head === slots.waiting.length) {
      slots.waiting = [];
      slots.head = 0;
    } else if (slots.head > 1024 && slots.head * 2 > slots.waiting.length) {
      slots.waiting = slots.waiting.slice(slots.head);
      slots.head = 0;
    }
    if (slots.active === 0 && slots.waiting.length === 0) hosts.delete(host);
  };

  // A free slot is taken synchronously: the common case costs no extra turn of the event loop.
  const tryAcquire = (host: string): HostSlots | null => {
    let slots = hosts.get(host);
    if (slots === undefined) {
      slots = { active: 0, waiting: [], head: 0 };
      hosts.set(host, slots);
    }
    if (slots.active >= limit) return null;
    slots.active++;
    return slots;
  };

  const waitFor = (host: string, signal: AbortSignal): Promise<HostSlots> => {
    const held = hosts.get(host) as HostSlots;
    return new Promise<HostSlots>((resolve, reject) => {
      const waiter: Waiter = {
        grant() {
          stop();
          resolve(held);
        },
        cancelled: false,
      };
      const stop = followAbort(signal, () => {
        waiter.cancelled = true;
        reject(signal.reason);
      });
      if (!waiter.cancelled) held.waiting.push(waiter);
    });
  };

  const send = (host: string, slots: HostSlots, request: TransportRequest): Promise<TransportResponse> => {
    let released = false;
    const giveBack = (): void => {
      if (released) return;
      released = true;
      release(host, slots);
    };
    let pending: Promise<TransportResponse>;
    try {
      pending = transport.request(request);
    } catch (error) {
      giveBack();
      return Promise.reject(error);
    }
    return pending.then(
      (response) => ({
        status: response.status,
        headers: response.headers,
        body: response.body,
        dispose: () => response.dispose().finally(giveBack),
      }),
      (error: unknown) => {
        giveBack();
        throw error;
      },
    );
  };

  const limited: Transport = {
    request(request: TransportRequest): Promise<TransportResponse> {
      if (request.signal.aborted) return Promise.reject(request.signal.reason);
      const host = request.url.hostname;
      const slots = tryAcquire(host);
      if (slots !== null) return send(host, slots, request);
      return waitFor(host, request.signal).then((granted) => send(host, granted, request));
    },
  };
  if (transport.close !== undefined) limited.close = () => transport.close?.() ?? Promise.resolve();
  return limited;
}
