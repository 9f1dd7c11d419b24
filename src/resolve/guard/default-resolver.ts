import { lookup } from "node:dns/promises";

/**
 * The system resolver: `getaddrinfo` through `dns.lookup`, every A and AAAA answer in the order the
 * system returns them (`verbatim`), so /etc/hosts and the local resolver configuration apply as they
 * do for any other program. `getaddrinfo` cannot be cancelled, so the signal is raced: on abort the
 * promise rejects with the signal's reason at once and the lookup's late answer is dropped.
 *
 * @example
 * ```ts
 * const addresses = await defaultResolver("example.com", AbortSignal.timeout(5000));
 * ```
 */
export function defaultResolver(hostname: string, signal: AbortSignal): Promise<string[]> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<string[]>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    lookup(hostname, { all: true, verbatim: true }).then(
      (answers) => {
        signal.removeEventListener("abort", onAbort);
        resolve(answers.map((answer) => answer.address));
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
