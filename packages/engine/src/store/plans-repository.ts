import type { PlanRow } from "../model/plans.js";
import type { Db } from "./db.js";
import { deletePlanById, insertPlan, planById, plansPage } from "./sql/plans-sql.js";
import { run } from "./sql/sql.js";

/** The stored plans: written once, read, deleted. */
export class PlansRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<PlanRow, "seq">): Promise<void> {
    await run(this.db, insertPlan(row));
  }

  async get(id: string): Promise<PlanRow | undefined> {
    return (await run<PlanRow>(this.db, planById(id)))[0];
  }

  async page(afterSeq: string | undefined, limit: number | undefined): Promise<PlanRow[]> {
    return run<PlanRow>(this.db, plansPage(afterSeq, limit));
  }

  /** False when there was no such plan. */
  async delete(id: string): Promise<boolean> {
    return (await run(this.db, deletePlanById(id))).length > 0;
  }
}
