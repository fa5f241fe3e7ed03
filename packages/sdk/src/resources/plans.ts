import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import { listQuery, type Page, type PageOptions } from "../lists.js";
import type { Plan, PlanCreate } from "../types.js";

export interface PlansMethods {
  /**
   * Checks a plan (every problem in one 400) and stores it, its `service: "*"` targets expanded
   * and its size counted; with `dryRun`, answers what would be stored and stores nothing.
   */
  createPlan(body: PlanCreate, options?: CallOptions & { dryRun?: boolean }): Promise<Plan>;
  /** The stored plans, oldest first. */
  listPlans(options?: CallOptions): Promise<Plan[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listPlansPage(options?: CallOptions & PageOptions): Promise<Page<Plan>>;
  getPlan(planId: string, options?: CallOptions): Promise<Plan>;
  deletePlan(planId: string, options?: RequestOptions): Promise<void>;
  /** Pauses the plan's schedule: no tick starts a run until it is resumed (`schedule.next_run_at` null meanwhile). A plan without a schedule is a 409. */
  pausePlanSchedule(planId: string, options?: CallOptions): Promise<Plan>;
  /** Resumes the plan's schedule from now: ticks that fell while it was paused start nothing. A plan without a schedule is a 409. */
  resumePlanSchedule(planId: string, options?: CallOptions): Promise<Plan>;
}

export function plansMethods({ raw, unwrap, init, listInit, fieldsHeader, readPage, itemsOf }: ClientContext): PlansMethods {
  const plansPage = (o?: CallOptions & PageOptions) =>
    readPage<Plan>(raw.GET("/plans/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  return {
    createPlan: (body, o) =>
      unwrap(raw.POST("/plans/", { body, params: { header: fieldsHeader(o), query: o?.dryRun ? { dry_run: true } : undefined }, ...init(o) })),
    listPlans: (o) => itemsOf(plansPage(o)),
    listPlansPage: plansPage,
    getPlan: (planId, o) => unwrap(raw.GET("/plans/{plan_id}", { params: { path: { plan_id: planId }, header: fieldsHeader(o) }, ...init(o) })),
    deletePlan: async (planId, o) => {
      await unwrap(raw.DELETE("/plans/{plan_id}", { params: { path: { plan_id: planId } }, ...init(o) }));
    },
    pausePlanSchedule: (planId, o) =>
      unwrap(raw.POST("/plans/{plan_id}/pause", { params: { path: { plan_id: planId }, header: fieldsHeader(o) }, ...init(o) })),
    resumePlanSchedule: (planId, o) =>
      unwrap(raw.POST("/plans/{plan_id}/resume", { params: { path: { plan_id: planId }, header: fieldsHeader(o) }, ...init(o) })),
  };
}
