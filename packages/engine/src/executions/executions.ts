import { randomUUID } from "node:crypto";
import type { Execution, ExecutionCreate } from "@benchwright/contract";
import type { CatalogSource } from "../catalog-source.js";
import type { Costs } from "../cost/costs.js";
import { BenchwrightError } from "../errors.js";
import { definitionDigest } from "../steps/provenance.js";
import { catalogWorkload, jsonPointerToken } from "./catalog-workload.js";
import { executionCursor } from "../lists/cursor.js";
import { executionWhereOf, pageOf, type ExecutionListQuery, type MetricsExportQuery, type Page } from "../lists/list-query.js";
import { metricRowsOf, type MetricRow } from "../lists/metric-rows.js";
import type { ReadCache } from "../read-cache.js";
import { compareExecutions, type Warmup, type ComparedRow, type Comparison } from "../results/comparison.js";
import { repetitionPlanOf } from "../results/repetitions.js";
import type { Store } from "../store/store.js";
import type { ExecutionRow, ExecutionWithSteps } from "../model/executions.js";
import { paramViews } from "../views/benchmark-views.js";
import { executionView, executionViews, lastRunProvenance } from "../views/execution-views.js";
import { liveSession } from "../sessions/live-session.js";

export interface ExecutionsOptions {
  store: Store;
  catalogs: CatalogSource;
  /** The read views, shared with the sessions' reads (a session's view holds its executions). */
  reads: ReadCache;
  /** What executions cost: added to their views as they are read, never kept with them. */
  costs: Costs;
}

/** What a comparison is asked: the executions, its baseline (the first by default) and its settings (see results/comparison.ts). */
export interface CompareQuery {
  ids: string[];
  baseline?: string;
  confidence?: number;
  minDifference?: number;
  margin?: number;
  warmup?: Warmup;
}

/** Executions: made in a live session from a catalog's tool and workload, read, exported and compared. */
export class Executions {
  constructor(private readonly options: ExecutionsOptions) {}

  /** `id` is given by a plan's run, which records it before the execution is made (so that it is made once). */
  async create(sessionId: string, body: ExecutionCreate, { id = randomUUID() }: { id?: string } = {}): Promise<Execution> {
    const { store, catalogs } = this.options;
    await liveSession(store, sessionId);
    const catalog = await catalogs.refresh();
    const { tool, workload } = catalogWorkload(catalog, body.tool, body.workload);
    // The version of a team's definition it runs, whatever is written later; a built-in's or a file's digest alone.
    const stored = catalogs.teamVersionOf(tool.id);
    const params = catalog.params(tool.id, workload.id, body.params);
    if (params.problems.length) {
      throw new BenchwrightError(
        "validation_failed",
        `params of ${tool.id}/${workload.id}: ${params.problems.map((p) => `${p.name} ${p.message}`).join("; ")}`,
        {
          errors: params.problems.map((p) => ({ path: `/body/params/${jsonPointerToken(p.name)}`, message: p.message })),
          parameters: paramViews(workload.params),
        },
      );
    }
    const row = {
      id,
      session_id: sessionId,
      tool_id: tool.id,
      workload_id: workload.id,
      params: params.values,
      repetitions: repetitionPlanOf(body.repetitions),
      // Only "off" is stored: NULL (on) is what rows from before the option read as too.
      telemetry: body.telemetry === false ? false : null,
      test: {
        tool_id: tool.id,
        workload_id: workload.id,
        tool_name: tool.tool_name,
        workload_name: workload.workload_name,
        workload_description: workload.workload_description,
      },
      state: "created" as const,
      created: new Date(),
      definition_version: stored?.version ?? null,
      definition_digest: stored?.digest ?? definitionDigest(tool),
      branch: body.branch ?? null,
      commit_id: body.commit ?? null,
    };
    await store.executions.insert(row);
    const made = { ...row, exec_env: { vms: [] }, metrics: [], steps: [], seq: "" };
    const [view] = await this.options.costs.withCosts([made], [executionView(made, [])]);
    return view;
  }

  /**
   * Every execution, or those of a session, deleted or not (those that match the query's
   * filters; a page of them with its `limit`), in creation order.
   */
  async list(sessionId?: string, query: ExecutionListQuery = {}): Promise<Page<Execution>> {
    const { store, reads, costs } = this.options;
    const { rows, page } = await reads.get(`executions:${sessionId ?? "*"}:${JSON.stringify(query)}`, async () => {
      if (sessionId && !(await store.sessions.get(sessionId))) throw new BenchwrightError("not_found", `No session ${sessionId}`);
      const where = this.where(sessionId === undefined ? query : { ...query, session_id: sessionId });
      const found = pageOf(await store.executions.withSteps(where), query.limit, (last) => executionCursor(last.seq));
      return { rows: found.items, page: { items: executionViews(found.items), next: found.next } };
    });
    const items = await costs.withCosts(rows, page.items);
    return items === page.items ? page : Object.freeze({ ...page, items: items as Execution[] });
  }

  /**
   * The metric figures of every successful run attempt of the executions that match the
   * filters, a batch at a time (one query per batch of executions): an export of any size
   * holds a batch in memory, not the whole. A bad filter rejects the first batch.
   */
  async *exportMetrics(query: MetricsExportQuery = {}): AsyncGenerator<MetricRow[], void, undefined> {
    const where = this.where(query);
    for (let after: string | undefined; ; ) {
      const runs = await this.options.store.metrics.runMetrics({ ...where, afterSeq: after, limit: EXPORT_BATCH });
      yield metricRowsOf(runs);
      // Store.runMetrics gives every execution of the batch at least one row.
      if (new Set(runs.map((r) => r.seq)).size < EXPORT_BATCH) return;
      after = runs[runs.length - 1].seq;
    }
  }

  async get(id: string): Promise<Execution> {
    const { store, reads, costs } = this.options;
    const { row, view } = await reads.get(`execution:${id}`, async () => {
      const [found] = await store.executions.withSteps({ id });
      if (!found) throw new BenchwrightError("not_found", `No execution ${id}`);
      return { row: found, view: executionView(found, found.steps) };
    });
    const [costed] = await costs.withCosts([row], [view]);
    return costed;
  }

  /** The execution's row, whatever its session's state. */
  async row(id: string): Promise<ExecutionRow> {
    const row = await this.options.store.executions.get(id);
    if (!row) throw new BenchwrightError("not_found", `No execution ${id}`);
    return row;
  }

  /**
   * Compares executions metric by metric with a baseline (the first by default): see
   * results/comparison.ts. Deleted sessions' executions compare too: results outlive sessions.
   */
  async compare(query: CompareQuery): Promise<Comparison> {
    const { ids, baseline = query.ids[0], confidence = 0.95, minDifference = 0, margin, warmup } = query;
    if (!ids.includes(baseline)) {
      const message = "must be one of the executions compared (ids)";
      throw new BenchwrightError("validation_failed", `baseline ${message}`, { errors: [{ path: "/query/baseline", message }] });
    }
    return compareExecutions(await this.comparedRows(ids), baseline, confidence, minDifference, { margin, warmup });
  }

  /** What a comparison reads of each execution, in the order of `ids`: its record, its session's provider, its last successful run's figures. */
  async comparedRows(ids: string[]): Promise<Array<ComparedRow & Omit<ExecutionWithSteps, "params">>> {
    const { store } = this.options;
    const rows = await store.executions.withSteps({ ids });
    const missing = ids.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw new BenchwrightError("not_found", `No execution ${missing.join(", ")}`);
    const sessions = await store.sessions.find({
      states: ["active", "deleting", "deleted"],
      ids: [...new Set(rows.map((r) => r.session_id))],
    });
    const sessionOf = new Map(sessions.map((s) => [s.id, s]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => {
      const row = byId.get(id)!;
      const session = sessionOf.get(row.session_id)!;
      return {
        ...row,
        provider: session.provider_name,
        service_type: session.service_type,
        params: (row as { params?: Record<string, unknown> }).params ?? {},
        provenance: lastRunProvenance(row.steps),
      };
    });
  }

  /** What a list or the export selects; a filter may name a tool by any of its names (`toolId`). */
  private where(query: ExecutionListQuery) {
    return executionWhereOf(query, (name) => this.options.catalogs.current().tool(name)?.id ?? name);
  }
}

/** How many executions' figures the metrics export reads at a time. */
const EXPORT_BATCH = 200;
