import { randomUUID } from "node:crypto";
import { BenchwrightError } from "../errors.js";
import { planRunCursor } from "../lists/cursor.js";
import { pageOf, planRunPageOf, type Page, type PlanListQuery } from "../lists/list-query.js";
import { BOOTSTRAP_PRINCIPAL } from "../model/principals.js";
import type { NewPlanRun, PlanRunCellRow, PlanRunTrigger } from "../model/plan-runs.js";
import type { PlanRow } from "../model/plans.js";
import type { Db } from "../store/db.js";
import type { Store } from "../store/store.js";
import { runCells } from "./run-cells.js";
import { planRunView, type PlanRunView } from "./run-view.js";

/**
 * A plan's runs as the API sees them: started (recorded, for a driver to take up), listed,
 * read, cancelled. Driving them is the RunDriver's, in whichever process holds the run.
 */
/**
 * A new run of the plan, `pending`, and its cells: the ids of its sessions and its cells' executions
 * given ahead, and the principal its sessions will belong to (`startedBy`).
 */
function newRun(plan: PlanRow, trigger: PlanRunTrigger, scheduledFor: Date | null, startedBy: string): { run: NewPlanRun; cells: PlanRunCellRow[] } {
  const id = randomUUID();
  const run = {
    id,
    plan_id: plan.id,
    state: "pending" as const,
    created: new Date(),
    started: null,
    ended: null,
    sessions: Object.fromEntries(plan.body.targets.map((t) => [t.label, randomUUID()])),
    trigger,
    scheduled_for: scheduledFor,
    started_by: startedBy,
  };
  return { run, cells: runCells(id, plan.body) };
}

/** Who starts a run, and the branch and commit of the code its cells measure (copied onto their points). */
export interface PlanRunStartOptions {
  startedBy?: string;
  branch?: string | null;
  commit?: string | null;
}

export class PlanRuns {
  constructor(
    private readonly store: Store,
    /** Tells this process's driver that a run wants one, so that it need not wait for its next sweep. */
    private readonly wake: () => void = () => {},
  ) {}

  /**
   * Records a run of the plan, `pending`, with its cells and the ids its sessions and executions
   * will have; its sessions will be `startedBy`'s (the principal who asked), shared with everyone.
   */
  async start(planId: string, { startedBy = BOOTSTRAP_PRINCIPAL, branch, commit }: PlanRunStartOptions = {}): Promise<PlanRunView> {
    const plan = await this.store.plans.get(planId);
    if (!plan) throw new BenchwrightError("not_found", `No plan ${planId}`);
    const made = newRun(plan, "api", null, startedBy);
    const run = { ...made.run, branch: branch ?? null, commit_id: commit ?? null };
    await this.store.planRuns.insert(run, made.cells);
    this.wake();
    return planRunView(run, made.cells);
  }

  /**
   * Records the run a tick of the plan's schedule starts, as `start` records a client's, but
   * only if `fire` (the tick's conditional write, which calls `record` in its own transaction)
   * wins the tick; null when another server fired it. Nobody asked for it: its sessions are the
   * plan's maker's, as if it had started the run (the bootstrap admin's for a plan from before that was recorded).
   */
  async startScheduled(plan: PlanRow, scheduledFor: Date, fire: (record: (tx: Db) => Promise<void>) => Promise<boolean>): Promise<PlanRunView | null> {
    const { run, cells } = newRun(plan, "schedule", scheduledFor, plan.created_by ?? BOOTSTRAP_PRINCIPAL);
    if (!(await fire((tx) => this.store.planRuns.insert(run, cells, tx)))) return null;
    this.wake();
    return planRunView(run, cells);
  }

  /** The plan's runs, oldest first (a page of them with the query's `limit`). */
  async list(planId: string, query: PlanListQuery = {}): Promise<Page<PlanRunView>> {
    const { afterSeq, limit } = planRunPageOf(query);
    if (!(await this.store.plans.get(planId))) throw new BenchwrightError("not_found", `No plan ${planId}`);
    const rows = await this.store.planRuns.page(planId, afterSeq, limit);
    const page = pageOf(rows, query.limit, (last) => planRunCursor(last.seq));
    return { items: page.items.map((r) => planRunView(r, r.cells)), next: page.next };
  }

  async get(planId: string, runId: string): Promise<PlanRunView> {
    const row = await this.store.planRuns.get(planId, runId);
    if (!row) throw new BenchwrightError("not_found", `No run ${runId} of plan ${planId}`);
    return planRunView(row, row.cells);
  }

  /** Asks the run's driver to stop it; answers the run, `cancelling`. An ended run is refused. */
  async cancel(planId: string, runId: string): Promise<PlanRunView> {
    const state = await this.store.planRuns.cancel(planId, runId);
    if (state === undefined) throw new BenchwrightError("not_found", `No run ${runId} of plan ${planId}`);
    if (state !== "cancelling") throw new BenchwrightError("wrong_state", `Run ${runId} is ${state}: it has ended`, { state });
    this.wake();
    return this.get(planId, runId);
  }
}
