import { randomUUID } from "node:crypto";
import type { ExecutionCost, PlanCreate } from "@benchwright/contract";
import type { CatalogSource } from "../catalog-source.js";
import { BenchwrightError } from "../errors.js";
import { planCursor } from "../lists/cursor.js";
import { pageOf, planPageOf, type Page, type PlanListQuery } from "../lists/list-query.js";
import type { PlanRow, PlanView } from "../model/plans.js";
import { nextTick } from "../schedules/cron.js";
import type { SecretBox } from "../secrets/secret-box.js";
import type { Store } from "../store/store.js";
import { formatTimestamp } from "../time.js";
import { checkPlan } from "./check-plan.js";
import { expectedFromHistory, readCellHistory } from "./plan-history.js";
import type { TargetLimits } from "./plan-targets.js";
import type { ProviderConfigFile } from "../config/provider-config.js";

export interface PlansOptions extends Omit<TargetLimits, "providerConfigs"> {
  /** The Form A configurations, as they are now. */
  providerConfigs: () => Promise<ProviderConfigFile[]>;
  store: Store;
  catalogs: CatalogSource;
  /** Seals the inline targets' configurations: they hold credentials, as a session's do. */
  secrets: SecretBox;
  /** The least time between two ticks of a schedule; a cron whose ticks come closer is refused. Default 60 s. */
  scheduleMinIntervalMs?: number;
  /** The schedules' clock (see SchedulerOptions.clock): a new or resumed schedule's first tick is the next after its now. Default: the process's clock for a new plan, the database's for a resumed one. */
  scheduleClock?: () => Date;
  /** Told when a schedule was made or resumed here, so this process's scheduler looks at once. */
  onScheduled?: () => void;
  /** Prices executions, for a dry run's expected cost in money (see plan-history.ts). */
  costsOf?: (executionIds: string[]) => Promise<ReadonlyMap<string, ExecutionCost>>;
}

/** Plans: checked and expanded when made, stored, read and deleted. Running one is plan-runs/'. */
export class Plans {
  constructor(private readonly options: PlansOptions) {}

  /**
   * Checks and stores a plan; `dryRun` checks it and answers what would be stored, storing
   * nothing (with a precision, and what its cells' history expects of it: plan-history.ts).
   * `createdBy` is recorded: its scheduled runs' sessions are that principal's.
   */
  async create(body: PlanCreate, { dryRun = false, createdBy }: { dryRun?: boolean; createdBy?: string } = {}): Promise<PlanView> {
    const { store, catalogs, secrets } = this.options;
    const created = new Date();
    const configs = await this.options.providerConfigs();
    const { plan, inline, schedule, next } = checkPlan(
      body,
      await catalogs.refresh(),
      { ...this.options, providerConfigs: () => configs },
      this.options.scheduleClock?.() ?? created,
    );
    const row = {
      id: randomUUID(),
      created,
      body: plan,
      inline_sealed: Object.keys(inline).length ? secrets.seal(inline) : null,
      schedule,
      schedule_paused: false,
      next_run_at: next,
      created_by: createdBy ?? null,
    };
    if (!dryRun) {
      await store.plans.insert(row);
      if (schedule) this.options.onScheduled?.();
    }
    if (dryRun && plan.precision) {
      const expected = await expectedFromHistory(plan, (...cell) => readCellHistory(store, plan, this.options.costsOf, ...cell));
      return { ...planView(row), expected };
    }
    return planView(row);
  }

  /** The stored plans, oldest first (a page of them with the query's `limit`). */
  async list(query: PlanListQuery = {}): Promise<Page<PlanView>> {
    const { afterSeq, limit } = planPageOf(query);
    const page = pageOf(await this.options.store.plans.page(afterSeq, limit), query.limit, (last) => planCursor(last.seq));
    return { items: page.items.map(planView), next: page.next };
  }

  async get(id: string): Promise<PlanView> {
    const row = await this.options.store.plans.get(id);
    if (!row) throw new BenchwrightError("not_found", `No plan ${id}`);
    return planView(row);
  }

  /** Pauses the plan's schedule: no tick until it is resumed. A plan without a schedule is refused (wrong_state). */
  async pause(id: string): Promise<PlanView> {
    const paused = await this.options.store.schedules.pause(id);
    if (paused === "missing") throw new BenchwrightError("not_found", `No plan ${id}`);
    if (paused === "unscheduled") throw new BenchwrightError("wrong_state", `Plan ${id} has no schedule to pause`);
    return this.get(id);
  }

  /**
   * Resumes the plan's schedule from now: its next tick is the first after now, the ticks while
   * it was paused are not caught up. One not paused is left as it is. A plan without a schedule
   * is refused (wrong_state).
   */
  async resume(id: string): Promise<PlanView> {
    const resumed = await this.options.store.schedules.resume(id, (schedule, now) => nextTick(schedule, now), this.options.scheduleClock?.());
    if (resumed === "missing") throw new BenchwrightError("not_found", `No plan ${id}`);
    if (resumed === "unscheduled") throw new BenchwrightError("wrong_state", `Plan ${id} has no schedule to resume`);
    if (resumed === "resumed") this.options.onScheduled?.();
    return this.get(id);
  }

  /** A plan with a run not yet ended stays: its driver reads it. */
  async delete(id: string): Promise<void> {
    const deleted = await this.options.store.plans.delete(id);
    if (deleted === "missing") throw new BenchwrightError("not_found", `No plan ${id}`);
    if (deleted === "busy") throw new BenchwrightError("wrong_state", `Plan ${id} has a run that has not ended; cancel it first`);
  }
}

/** A plan as its resource shows it. */
export function planView(
  row: Pick<PlanRow, "id" | "created" | "body" | "schedule" | "schedule_paused" | "next_run_at"> &
    Partial<Pick<PlanRow, "schedule_skipped" | "schedule_last_skipped">>,
): PlanView {
  const schedule = row.schedule && {
    // Schedules from before `overlap` existed skip, as new ones do by default.
    overlap: "skip" as const,
    ...row.schedule,
    paused: row.schedule_paused,
    next_run_at: row.next_run_at ? formatTimestamp(new Date(row.next_run_at)) : null,
    skipped_ticks: row.schedule_skipped ?? 0,
    last_skipped_tick: row.schedule_last_skipped ? formatTimestamp(new Date(row.schedule_last_skipped)) : null,
  };
  // Plans stored before min_difference existed counted every significant difference.
  return { id: row.id, created: formatTimestamp(new Date(row.created)), min_difference: 0, ...row.body, schedule };
}
