import { randomUUID } from "node:crypto";
import type { Plan, PlanCreate } from "@benchwright/contract";
import type { CatalogSource } from "../catalog-source.js";
import { BenchwrightError } from "../errors.js";
import { planCursor } from "../lists/cursor.js";
import { pageOf, planPageOf, type Page, type PlanListQuery } from "../lists/list-query.js";
import type { PlanRow } from "../model/plans.js";
import type { SecretBox } from "../secrets/secret-box.js";
import type { Store } from "../store/store.js";
import { formatTimestamp } from "../time.js";
import { checkPlan } from "./check-plan.js";
import type { TargetLimits } from "./plan-targets.js";

export interface PlansOptions extends TargetLimits {
  store: Store;
  catalogs: CatalogSource;
  /** Seals the inline targets' configurations: they hold credentials, as a session's do. */
  secrets: SecretBox;
}

/** Plans: checked and expanded when made, stored, read and deleted. Running one is plan-runs/'. */
export class Plans {
  constructor(private readonly options: PlansOptions) {}

  /** Checks and stores a plan; `dryRun` checks it and answers what would be stored, storing nothing. */
  async create(body: PlanCreate, { dryRun = false } = {}): Promise<Plan> {
    const { store, catalogs, secrets } = this.options;
    const { plan, inline } = checkPlan(body, catalogs.current(), this.options);
    const row = {
      id: randomUUID(),
      created: new Date(),
      body: plan,
      inline_sealed: Object.keys(inline).length ? secrets.seal(inline) : null,
    };
    if (!dryRun) await store.insertPlan(row);
    return planView(row);
  }

  /** The stored plans, oldest first (a page of them with the query's `limit`). */
  async list(query: PlanListQuery = {}): Promise<Page<Plan>> {
    const { afterSeq, limit } = planPageOf(query);
    const page = pageOf(await this.options.store.listPlans(afterSeq, limit), query.limit, (last) => planCursor(last.seq));
    return { items: page.items.map(planView), next: page.next };
  }

  async get(id: string): Promise<Plan> {
    const row = await this.options.store.getPlan(id);
    if (!row) throw new BenchwrightError("not_found", `No plan ${id}`);
    return planView(row);
  }

  /** A plan with a run not yet ended stays: its driver reads it. */
  async delete(id: string): Promise<void> {
    const deleted = await this.options.store.deletePlan(id);
    if (deleted === "missing") throw new BenchwrightError("not_found", `No plan ${id}`);
    if (deleted === "busy") throw new BenchwrightError("wrong_state", `Plan ${id} has a run that has not ended; cancel it first`);
  }
}

function planView(row: Pick<PlanRow, "id" | "created" | "body">): Plan {
  // Plans stored before min_difference existed counted every significant difference.
  return { id: row.id, created: formatTimestamp(new Date(row.created)), min_difference: 0, ...row.body };
}
