import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import { listQuery, type Page, type PageOptions } from "../lists.js";
import type { PlanReport, PlanRun, PlanRunStart } from "../types.js";

export interface PlanRunsMethods {
  /**
   * Starts a run of the plan and answers at once with it, `pending`: the server opens the
   * targets' sessions, makes and runs each cell's execution and deletes the sessions at the end.
   * Follow it with `getPlanRun` (its `progress` and `cells`) or `events()` (`plan_run.*`).
   *
   * @example
   * let run = await bw.startPlanRun(plan.id);
   * while (run.ended === null) {
   *   await new Promise((r) => setTimeout(r, 2000));
   *   run = await bw.getPlanRun(plan.id, run.id);
   * }
   *
   * `branch` and `commit` name the code the run measures (a CI's job does): the points its cells
   * add carry them, and a gate compares them with that branch's history.
   */
  startPlanRun(planId: string, options?: CallOptions & PlanRunStart): Promise<PlanRun>;
  /** The plan's runs, oldest first. */
  listPlanRuns(planId: string, options?: CallOptions): Promise<PlanRun[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listPlanRunsPage(planId: string, options?: CallOptions & PageOptions): Promise<Page<PlanRun>>;
  getPlanRun(planId: string, runId: string, options?: CallOptions): Promise<PlanRun>;
  /** Cancels the run: answers it `cancelling`; its steps are stopped, its sessions deleted, its results kept. An ended run is a 409. */
  cancelPlanRun(planId: string, runId: string, options?: CallOptions): Promise<PlanRun>;
  /**
   * The run's report: for each cell and metric every target's summary, ratio to the baseline,
   * verdict and rank; each target's geometric mean and rank; the failed cells with why.
   */
  getPlanRunReport(planId: string, runId: string, options?: CallOptions): Promise<PlanReport>;
  /** The same report as CSV or JSON Lines of its cells, or as one self-contained HTML page (charts inline, nothing fetched). */
  getPlanRunReportText(planId: string, runId: string, format: "csv" | "jsonl" | "html", options?: RequestOptions): Promise<string>;
}

export function planRunsMethods({ raw, unwrap, unwrapAs, init, listInit, fieldsHeader, readPage, itemsOf }: ClientContext): PlanRunsMethods {
  const planRunsPage = (planId: string, o?: CallOptions & PageOptions) =>
    readPage<PlanRun>(
      raw.GET("/plans/{plan_id}/runs/", { params: { path: { plan_id: planId }, header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }),
    );
  return {
    startPlanRun: (planId, o) => {
      const body: PlanRunStart | undefined = o?.branch || o?.commit ? { branch: o.branch ?? null, commit: o.commit ?? null } : undefined;
      return unwrap(raw.POST("/plans/{plan_id}/runs/", { params: { path: { plan_id: planId } }, ...(body ? { body } : {}), ...init(o) }));
    },
    listPlanRuns: (planId, o) => itemsOf(planRunsPage(planId, o)),
    listPlanRunsPage: planRunsPage,
    getPlanRun: (planId, runId, o) =>
      unwrap(raw.GET("/plans/{plan_id}/runs/{run_id}", { params: { path: { plan_id: planId, run_id: runId }, header: fieldsHeader(o) }, ...init(o) })),
    cancelPlanRun: (planId, runId, o) =>
      unwrap(raw.DELETE("/plans/{plan_id}/runs/{run_id}", { params: { path: { plan_id: planId, run_id: runId } }, ...init(o) })),
    // The operation answers JSON or text by `format`: each method reads the one it asks for.
    getPlanRunReport: (planId, runId, o) =>
      unwrapAs<PlanReport>(
        raw.GET("/plans/{plan_id}/runs/{run_id}/report", {
          params: { path: { plan_id: planId, run_id: runId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    getPlanRunReportText: (planId, runId, format, o) =>
      unwrapAs<string>(
        raw.GET("/plans/{plan_id}/runs/{run_id}/report", {
          params: { path: { plan_id: planId, run_id: runId }, query: { format } },
          parseAs: "text",
          ...init(o),
        }),
      ),
  };
}
