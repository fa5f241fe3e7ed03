import type { ExecutionCost } from "@benchwright/contract";

export type CostBasis = ExecutionCost["basis"];

/** A step attempt as its cost counts it: `duration` null while it runs (it counts until now). */
interface CostedStep {
  started: Date;
  /** Seconds. */
  duration: number | null;
}

/** An execution as its cost counts it: its step attempts and the machines its environment lists. */
export interface CostedExecution {
  id: string;
  steps: readonly CostedStep[];
  machines: readonly string[];
}

/** A machine's life in the ledger: created, and destroyed (null while it lives). */
export interface MachineLife {
  id: string;
  created: Date;
  destroyed: Date | null;
}

/** What one session's executions cost: its service type's price, and what the price is of. */
export interface SessionCharge {
  perHour: number;
  currency: string;
  basis: CostBasis;
  executions: readonly CostedExecution[];
  /** The session's cloud machines (machine_lifetime only). */
  machines?: readonly MachineLife[];
}

/** Seconds from `from` to `to`, never negative (clocks of different processes may disagree a little). */
function secondsBetween(from: Date, to: Date): number {
  return Math.max(0, (to.getTime() - from.getTime()) / 1000);
}

/** The time of an execution's step attempts, failed ones included: a running one until now. */
function stepSeconds(execution: CostedExecution, now: Date): number {
  return execution.steps.reduce((sum, s) => sum + (s.duration ?? secondsBetween(s.started, now)), 0);
}

/**
 * Each execution's share of its session's cost, in seconds charged.
 *
 * `step_time` (existing-vm, local): the time of the execution's own steps.
 *
 * `machine_lifetime` (cloud): each machine's whole life, from its creation to its destruction
 * (or now), goes to the executions whose environment lists it (all of the session's when none
 * does: a prepare that failed before recording its environment), in proportion to the time of
 * their steps (equally when none has any). Every machine second goes to some execution, so the
 * shares add up to what the session's machines cost.
 */
function chargedSeconds(session: SessionCharge, now: Date): Map<string, number> {
  const own = new Map(session.executions.map((e) => [e.id, stepSeconds(e, now)]));
  if (session.basis === "step_time") return own;
  const charged = new Map(session.executions.map((e) => [e.id, 0]));
  for (const machine of session.machines ?? []) {
    const life = secondsBetween(machine.created, machine.destroyed ?? now);
    const users = session.executions.filter((e) => e.machines.includes(machine.id));
    const sharers = users.length ? users : session.executions;
    const weight = sharers.reduce((sum, e) => sum + own.get(e.id)!, 0);
    for (const e of sharers) {
      const share = weight > 0 ? own.get(e.id)! / weight : 1 / sharers.length;
      charged.set(e.id, charged.get(e.id)! + life * share);
    }
  }
  return charged;
}

/** Each execution's cost (by execution id): seconds charged × the price per hour. */
export function sessionCosts(session: SessionCharge, now: Date): Map<string, ExecutionCost> {
  const costs = new Map<string, ExecutionCost>();
  for (const [id, seconds] of chargedSeconds(session, now)) {
    costs.set(id, {
      amount: round((seconds * session.perHour) / 3600, 6),
      currency: session.currency,
      basis: session.basis,
      seconds: round(seconds, 3),
    });
  }
  return costs;
}

/** What a set of costs add up to, per currency (amounts in different currencies are not added). */
export function costTotals(costs: Iterable<ExecutionCost>): Array<{ currency: string; amount: number }> {
  const totals = new Map<string, number>();
  for (const c of costs) totals.set(c.currency, (totals.get(c.currency) ?? 0) + c.amount);
  return [...totals].map(([currency, amount]) => ({ currency, amount: round(amount, 6) }));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
