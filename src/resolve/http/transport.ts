/**
 * One request the hop loop hands to a transport, after the URL policy, DNS and the address policy
 * have run. A transport must connect only to `addresses` (already validated) and must verify TLS
 * against `url.hostname`, never against the address.
 */
export interface TransportRequest {
  url: URL;
  method: "HEAD" | "GET";
  headers: Readonly<Record<string, string>>;
  /** Validated addresses (IPv4 dotted or IPv6 without brackets), in preference order. */
  addresses: readonly string[];
  /** Aborts the request; carries the total deadline. */
  signal: AbortSignal;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  writeTimeoutMs: number;
}

/** What a transport returns: status and headers at once, the body only on demand. */
export interface TransportResponse {
  status: number;
  /** Header names lowercased; repeated fields keep every value. */
  headers: Readonly<Record<string, string | readonly string[]>>;
  /** The raw (possibly compressed) body, read only for GET 2xx HTML. */
  body: AsyncIterable<Uint8Array>;
  /** Stops the body without draining it and releases the connection. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * The transport seam: performs one HTTP request to an already validated address. The default
 * (`createPinnedTransport`) pins the connection to those addresses with undici; tests and exotic
 * deployments inject their own.
 *
 * @example
 * ```ts
 * const transport: Transport = {
 *   async request(req) {
 *     return { status: 204, headers: {}, body: (async function* () {})(), async dispose() {} };
 *   },
 * };
 * ```
 */
export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Closes pooled connections. */
  close?(): Promise<void>;
}
