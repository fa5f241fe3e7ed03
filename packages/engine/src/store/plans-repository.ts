import type { NewPlan, PlanRow } from "../model/plans.js";
import type { Db } from "./db.js";
import type { EventAppender } from "./event-appender.js";
import { deletePlanById, insertPlan, planById, plansPage } from "./sql/plans-sql.js";
import { run } from "./sql/sql.js";

/** The stored plans: written once, read, deleted; each creation and deletion told in the event log. */
export class PlansRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  async insert(row: NewPlan): Promise<void> {
    await this.db.transaction(async (tx) => {
      await run(tx, insertPlan(row));
      await this.events.appendAll([{ type: "plan.created", session_id: null, execution_id: null, data: { plan_id: row.id } }], tx);
    });
  }

  async get(id: string): Promise<PlanRow | undefined> {
    return (await run<PlanRow>(this.db, planById(id)))[0];
  }

  async page(afterSeq: string | undefined, limit: number | undefined): Promise<PlanRow[]> {
    return run<PlanRow>(this.db, plansPage(afterSeq, limit));
  }

  /** `missing` when there was no such plan, `busy` when a run of it has not ended. */
  async delete(id: string): Promise<"deleted" | "missing" | "busy"> {
    return this.db.transaction(async (tx) => {
      if ((await run(tx, deletePlanById(id))).length > 0) {
        await this.events.appendAll([{ type: "plan.deleted", session_id: null, execution_id: null, data: { plan_id: id } }], tx);
        return "deleted";
      }
      return (await run(tx, planById(id))).length > 0 ? "busy" : "missing";
    });
  }
}
