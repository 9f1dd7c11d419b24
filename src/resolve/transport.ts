/**
 * The transport seam: performs one HTTP request to an address the policy has already validated.
 * The resolver issue defines its full shape; this placeholder lets the option exist.
 *
 * @example
 * ```ts
 * const transport: Transport = { async request() { throw new Error("offline"); } };
 * ```
 */
export interface Transport {
  request(request: unknown): Promise<unknown>;
  close?(): Promise<void>;
}
