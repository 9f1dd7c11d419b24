import type * as BullMQ from "bullmq";
import type * as NodeRedis from "redis";
import { loadOptional, missingPeerError } from "../cache/load-optional.js";

/** The two optional peer dependencies a fleet runs on. */
export interface FleetLibraries {
  bullmq: typeof BullMQ;
  redis: typeof NodeRedis;
}

let loaded: FleetLibraries | undefined;

/**
 * Loads bullmq and its Redis client (node-redis) the first time a fleet is created: both are
 * optional peer dependencies, so `import "canonurl/fleet"` works without them and `createFleet`
 * throws one Error naming every missing package (`npm i bullmq redis`).
 *
 * @example
 * ```ts
 * const { bullmq, redis } = fleetLibraries();
 * ```
 */
export function fleetLibraries(): FleetLibraries {
  if (loaded !== undefined) return loaded;
  const missing: string[] = [];
  let cause: unknown;
  const load = <T>(name: string): T | undefined => {
    try {
      return loadOptional<T>(name, "createFleet");
    } catch (error) {
      missing.push(name);
      cause ??= (error as Error).cause;
      return undefined;
    }
  };
  const bullmq = load<typeof BullMQ>("bullmq");
  const redis = load<typeof NodeRedis>("redis");
  if (bullmq === undefined || redis === undefined) {
    const names = missing.join(" ");
    throw missingPeerError(
      names,
      "createFleet",
      cause,
      `the fleet needs the packages bullmq and redis (missing: ${missing.join(", ")})`,
    );
  }
  loaded = { bullmq, redis };
  return loaded;
}
