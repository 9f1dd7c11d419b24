import { CanonError } from "../../errors/canon-error.js";
import { FetchError } from "../../errors/fetch-error.js";
import { SecurityError } from "../../errors/security-error.js";
import { UrlError } from "../../errors/url-error.js";
import { type Deadline, raceSignal } from "../deadline.js";
import { abortReasonError } from "../http/to-canon-error.js";
import { type AddressVerdict, createAddressPolicy } from "./address-policy.js";
import { parseIp } from "./ip-address.js";

/**
 * The resolved (all fields required) network policy one hop is checked against.
 *
 * @example
 * ```ts
 * const policy: ResolvedNetPolicy = {
 *   allowedPorts: [80, 443],
 *   allowPrivateNetworks: false,
 *   allowedNetworks: [],
 *   resolver: defaultResolver,
 * };
 * ```
 */
export interface ResolvedNetPolicy {
  readonly allowedPorts: readonly number[];
  readonly allowPrivateNetworks: boolean;
  readonly allowedNetworks: readonly string[];
  /** A and AAAA answers for a host name; must honour (or at least not outlive) the signal. */
  readonly resolver: (hostname: string, signal: AbortSignal) => Promise<string[]>;
}

// Compiled once per policy object: a client resolves its options once and reuses them on every hop.
/**
 * How many distinct validated addresses of one name are handed to the socket layer, in the resolver's
 * order. Real DNS answers hold a handful; the bound only matters against a resolver answering thousands.
 */
export const MAX_DIALLED_ADDRESSES = 16;

const compiled = new WeakMap<ResolvedNetPolicy, (address: string) => AddressVerdict>();

function addressCheck(policy: ResolvedNetPolicy): (address: string) => AddressVerdict {
  let check = compiled.get(policy);
  if (check === undefined) {
    check = createAddressPolicy({
      allowPrivateNetworks: policy.allowPrivateNetworks,
      allowedNetworks: policy.allowedNetworks,
    });
    compiled.set(policy, check);
  }
  return check;
}

// Credentials never reach an error message or a log line.
function redacted(url: URL): string {
  if (url.username === "" && url.password === "") return url.href;
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

// RFC 6761 §6.3: localhost and every name under it are loopback, whatever DNS says.
function isLocalhostName(hostname: string): boolean {
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  return name === "localhost" || name.endsWith(".localhost");
}

function abortError(signal: AbortSignal, href: string, phase: string): CanonError {
  return abortReasonError(signal.reason, href, phase);
}

function refuse(address: string, verdict: AddressVerdict, href: string): SecurityError {
  return new SecurityError(
    "blocked-address",
    `address ${address} is not allowed (${verdict.reason}): ${href}`,
    {
      url: href,
    },
  );
}

/**
 * Runs the URL → DNS → address part of one hop and returns the addresses the connection may use, in
 * preference order. In order: userinfo → `userinfo`; effective port (80/443 when empty) not in
 * `allowedPorts` → `blocked-port`; `localhost` and `*.localhost` → `blocked-address` (unless
 * `allowPrivateNetworks`, which admits loopback anyway); an IP literal
 * (already canonical from the WHATWG parser: `0x7f.1` is `127.0.0.1`) is checked directly; a name is
 * resolved through `policy.resolver` under `signal` (raced against it by `race`: by default
 * {@link raceSignal}; a {@link Deadline} passes its own listener-free race), and if ANY answer fails the address policy the
 * hop fails with `blocked-address` naming it. A trailing-dot name (`example.test.`) is checked and
 * resolved as the same name without the dot. Duplicates are dropped and at most
 * {@link MAX_DIALLED_ADDRESSES} addresses are returned, though every answer is checked.
 *
 * Errors: `SecurityError` as above; `UrlError` `unsupported-scheme` for a non-HTTP(S) URL;
 * `TimeoutError` `timeout` when the signal times out, `AbortError` `aborted` when the caller aborts it
 * (a `CanonError` abort reason is thrown as is);
 * `FetchError` `connection-failed` (with `cause`) when the resolver fails or answers nothing.
 *
 * @example
 * ```ts
 * const addresses = await resolveDestination(new URL("https://example.com/"), policy, signal);
 * await transport.request({ url, addresses, ...rest });
 * ```
 */
export async function resolveDestination(
  url: URL,
  policy: ResolvedNetPolicy,
  signal: AbortSignal,
  race: <T>(promise: Promise<T>) => Promise<T> = (promise) => raceSignal(promise, signal),
): Promise<string[]> {
  const href = redacted(url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UrlError("unsupported-scheme", `only http and https can be fetched: ${href}`, { url: href });
  }
  if (url.username !== "" || url.password !== "") {
    throw new SecurityError("userinfo", `URLs with user information are refused: ${href}`, { url: href });
  }
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  if (!policy.allowedPorts.includes(port)) {
    throw new SecurityError("blocked-port", `port ${port} is not allowed: ${href}`, { url: href });
  }
  const hostname = url.hostname;
  // localhost is a loopback address by name; allowPrivateNetworks admits loopback, so it admits it too.
  if (!policy.allowPrivateNetworks && isLocalhostName(hostname)) {
    throw new SecurityError("blocked-address", `localhost names are refused (RFC 6761 §6.3): ${href}`, {
      url: href,
    });
  }
  const check = addressCheck(policy);
  const literal = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  if (parseIp(literal) !== null) {
    const verdict = check(literal);
    if (!verdict.allowed) throw refuse(literal, verdict, href);
    return [literal];
  }
  if (signal.aborted) throw abortError(signal, href, "DNS resolution");
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  let answers: unknown;
  try {
    answers = await race(policy.resolver(name, signal));
  } catch (error) {
    if (signal.aborted) throw abortError(signal, href, "DNS resolution");
    if (error instanceof CanonError) throw error;
    throw new FetchError("connection-failed", `DNS resolution of ${name} failed: ${href}`, {
      url: href,
      cause: error,
    });
  }
  if (!Array.isArray(answers) || answers.length === 0) {
    throw new FetchError("connection-failed", `DNS resolution of ${name} returned no address: ${href}`, {
      url: href,
    });
  }
  // Every answer is checked (one refused address refuses the name), but only the first few distinct
  // ones are dialled: Node's socket layer dedupes a lookup's list with includes(), so thousands of
  // answers from a caller's resolver would cost their square there. A Set here keeps this loop linear.
  const validated = new Set<string>();
  for (const answer of answers as unknown[]) {
    const address = typeof answer === "string" ? answer : String(answer);
    if (validated.has(address)) continue;
    const verdict = check(address);
    if (!verdict.allowed) throw refuse(address, verdict, href);
    validated.add(address);
  }
  return [...validated].slice(0, MAX_DIALLED_ADDRESSES);
}
