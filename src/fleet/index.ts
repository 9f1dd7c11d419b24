// The `canonurl/fleet` entry: BullMQ and its Redis client load only through here, never from
// `canonurl` or `canonurl/core`.
export type { BlankOutcome, FleetOutcome } from "./blank-outcome.js";
export { createFleet, type Fleet } from "./fleet.js";
export type { FleetOptions } from "./fleet-options.js";
