import type { EngineLog } from "../engine-log.js";
import { ALERT_EVENTS, type AlertEvent } from "../model/webhooks.js";
import type { Store } from "../store/store.js";

/** What a change alert needs of a change (the contract's Change: its id and direction, and the rest sent as it is). */
export interface ChangeAlert {
  id: string;
  direction: "regression" | "improvement";
  [field: string]: unknown;
}

/** What a failed-run alert needs of a run (the contract's PlanRun). */
export interface RunAlert {
  id: string;
  plan_id: string;
  state: string;
  cells?: Array<{ target?: string; tool?: string; workload?: string; state?: string; error?: string | null; [field: string]: unknown }>;
  [field: string]: unknown;
}

/**
 * Where the engine's other parts report what webhooks are told of (the `AlertSink` of issue 25's
 * design): series/ a change once it is recorded, plan-runs/ a scheduled run that failed.
 */
interface AlertSink {
  onChange(change: ChangeAlert, context: { plan_id: string | null }): Promise<void>;
  onScheduledRunFailed(run: RunAlert, plan: { id: string }): Promise<void>;
}

/** The failed cells a schedule_failed alert lists, at most: a run may have thousands. */
const MAX_FAILED_CELLS = 20;

/**
 * Turns events into deliveries: one per webhook that wants the event, made once per event
 * however many servers enqueue it (the event key is unique per webhook), and sent by a
 * deliverer (this process's is woken at once).
 */
export class Alerts implements AlertSink {
  constructor(private readonly options: { store: Store; log?: EngineLog; wake?: () => void }) {}

  /**
   * Enqueues `event` for every webhook whose events name it and that is for every plan
   * (plan_id null) or for `planId`; answers how many deliveries were made now (0 for an event
   * enqueued before). `eventKey` names the event (`change:<id>`, `schedule_failed:<run id>`):
   * it is the receiver's Idempotency-Key.
   */
  async enqueue(event: AlertEvent, eventKey: string, planId: string | null, payload: Record<string, unknown>): Promise<number> {
    if (!ALERT_EVENTS.includes(event)) throw new RangeError(`${event} is not an alert event`);
    const made = await this.options.store.webhooks.enqueue(event, eventKey, planId, payload);
    if (made > 0) this.options.wake?.();
    return made;
  }

  /**
   * A change just recorded, or revised (by whoever did it): told as a regression or an
   * improvement. A revision (its point or size moved) is told again under the same change id,
   * with its `revision`; its event key (`change:<id>:<revision>`) differs from the first
   * telling's (`change:<id>`), so each is delivered once. Never throws: a failure is logged.
   */
  async onChange(change: ChangeAlert, context: { plan_id: string | null }): Promise<void> {
    const revision = typeof change.revision === "number" ? change.revision : 1;
    const key = revision > 1 ? `change:${change.id}:${revision}` : `change:${change.id}`;
    await this.enqueue(change.direction, key, context.plan_id, { change }).catch((e: Error) =>
      this.options.log?.(`the alert of change ${change.id} could not be enqueued: ${e.message}`, { level: "error" }),
    );
  }

  /** A run started by the plan's schedule that failed (or has failed cells). Never throws: a failure is logged. */
  async onScheduledRunFailed(run: RunAlert, plan: { id: string }): Promise<void> {
    const { cells = [], ...summary } = run;
    const failed = cells.filter((c) => c.state === "failed");
    const payload = {
      plan_id: plan.id,
      run: summary,
      failed_cells: failed.slice(0, MAX_FAILED_CELLS).map(({ target, tool, workload, state, error }) => ({ target, tool, workload, state, error })),
    };
    await this.enqueue("schedule_failed", `schedule_failed:${run.id}`, plan.id, payload).catch((e: Error) =>
      this.options.log?.(`the alert of failed run ${run.id} could not be enqueued: ${e.message}`, { level: "error" }),
    );
  }
}
