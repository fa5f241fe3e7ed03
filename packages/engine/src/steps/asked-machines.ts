import { BenchwrightError } from "../errors.js";
import type { MachinesAsked } from "../model/executions.js";
import type { Machine } from "../providers/provider.js";

/**
 * How many machines a step asks its session's provider for: the roles' need, or where the
 * execution asks for machines (and has no roles), as many as reach its last one.
 */
export function machinesToAsk(needed: number, hasRoles: boolean, asked: MachinesAsked | null | undefined): number {
  if (hasRoles || asked?.machines === undefined) return needed;
  return Math.max(needed, (asked.first_machine ?? 0) + asked.machines);
}

/**
 * The machines the execution runs on, of those the session has: from its `first_machine`, its
 * `machines` of them (every one by default). Fewer than it asks for fails the step, saying how
 * many the session has: measuring on fewer would report a spread between machines it did not see.
 */
export function askedMachines(machines: Machine[], hasRoles: boolean, asked: MachinesAsked | null | undefined): Machine[] {
  if (hasRoles || !asked || (asked.machines === undefined && !asked.first_machine)) return machines;
  const from = asked.first_machine ?? 0;
  const count = asked.machines ?? Math.max(0, machines.length - from);
  if (machines.length < from + count || count === 0) {
    throw new BenchwrightError(
      "step_failed",
      `the execution runs on ${count || "the"} machine${count === 1 ? "" : "s"} from the session's machine ${from + 1}, and the session has ${machines.length}`,
    );
  }
  return machines.slice(from, from + count);
}
