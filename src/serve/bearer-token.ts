import { createHash, timingSafeEqual } from "node:crypto";

/**
 * A check of `Authorization: Bearer <token>` (RFC 6750 §2.1) against the configured token, in
 * constant time: both sides are hashed to 32 bytes first, so neither the comparison nor a length
 * mismatch tells an attacker how much of a guess was right.
 *
 * @example
 * ```ts
 * const check = createBearerCheck("s3cret");
 * check("Bearer s3cret"); // true
 * check("Bearer nope");   // false
 * ```
 */
export function createBearerCheck(token: string): (authorization: string | null | undefined) => boolean {
  const expected = createHash("sha256").update(token, "utf8").digest();
  return (authorization) => {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
    const given = createHash("sha256")
      .update(match?.[1] ?? "", "utf8")
      .digest();
    // Always compare, even without a well-formed header, so that path costs the same time too.
    return timingSafeEqual(given, expected) && match !== null;
  };
}
