import type { CallOptions, ClientContext } from "../client-context.js";
import {
  LIST_QUERY_SERIALIZER,
  listQuery,
  type ExecutionFilters,
  type FollowOptions,
  type Page,
  type PageOptions,
  type SessionExecutionFilters,
} from "../lists.js";
import type { Comparison, Execution, ExecutionCreate } from "../types.js";

/** Options of `listSessionExecutions`: its filters. */
export type ListSessionExecutionsOptions = CallOptions & SessionExecutionFilters;
/** Options of `listExecutions`: its filters (without them, every execution). */
export type ListExecutionsOptions = CallOptions & ExecutionFilters;

/** Options of `compareExecutions`. */
export interface CompareOptions extends CallOptions {
  /** The execution the others are compared with (one of the ids; the first by default). */
  baseline?: string;
  /** The confidence level of the intervals and of the test; 0.95 by default. */
  confidence?: number;
  /** The smallest relative difference that counts (0.02: a ratio within 2% of 1 reads no_difference); 0 by default. */
  minDifference?: number;
  /** The relative difference that matters (0.02: 2%): each figure then has a `claim` (better, worse, equivalent, not_worse, not_better or inconclusive) with its sentence. */
  margin?: number;
  /** Leave out each machine's first runs as warm-up: a count, or "auto" (as many as MSER finds). */
  warmup?: number | "auto";
}

export interface ExecutionsMethods {
  createExecution(sessionId: string, body: ExecutionCreate, options?: CallOptions): Promise<Execution>;
  listSessionExecutions(sessionId: string, options?: ListSessionExecutionsOptions): Promise<Execution[]>;
  listSessionExecutionsPage(sessionId: string, options?: ListSessionExecutionsOptions & PageOptions): Promise<Page<Execution>>;
  /** The executions that match the filters (every one without them), oldest first. */
  listExecutions(options?: ListExecutionsOptions): Promise<Execution[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listExecutionsPage(options?: ListExecutionsOptions & PageOptions): Promise<Page<Execution>>;
  /**
   * The executions that match the filters, page after page (`pageSize` at a time) as the loop goes.
   *
   * @example
   * for await (const e of bw.executions({ tool: "sysbench", state: ["completed"] })) console.log(e.id, e.metrics);
   */
  executions(options?: ListExecutionsOptions & FollowOptions): AsyncIterable<Execution>;
  getExecution(execId: string, options?: CallOptions): Promise<Execution>;
  /**
   * Compares executions metric by metric with a baseline (the first by default): each one's
   * figures with their confidence intervals, the ratio to the baseline and a significance verdict.
   *
   * @example
   * const c = await bw.compareExecutions([awsRun.id, gcpRun.id]);
   * for (const m of c.metrics) for (const f of m.figures) console.log(m.name, f.execution_id, f.mean, f.ratio, f.verdict);
   */
  compareExecutions(ids: string[], options?: CompareOptions): Promise<Comparison>;
  /**
   * Cancels the execution's running prepare or run (wherever it runs) and keeps the session:
   * the step ends failed (`step_cancelled`), the execution `prepare_failed` or `run_failed`,
   * ready to be prepared or run again. Resolves with the execution once the step has ended;
   * when it is stopped elsewhere and has not ended yet (a 202), with the execution as it is
   * then (`preparing` or `running`): `waitForState` follows it. Throws a 409 `no_running_step`
   * when nothing runs.
   *
   * @example
   * const execution = await bw.cancelExecution(execId);
   * if (execution.state === "running") await waitForState(bw, execId, ["run_failed", "completed"]);
   */
  cancelExecution(execId: string, options?: CallOptions): Promise<Execution>;
}

export function executionsMethods({ raw, unwrap, init, listInit, fieldsHeader, readPage, itemsOf, follow }: ClientContext): ExecutionsMethods {
  const sessionExecutionsPage = (sessionId: string, o?: ListSessionExecutionsOptions & PageOptions) =>
    readPage<Execution>(
      raw.GET("/sessions/{session_id}/executions/", {
        params: { path: { session_id: sessionId }, header: fieldsHeader(o), query: listQuery(o) },
        ...listInit(o),
      }),
    );
  const executionsPage = (o?: ListExecutionsOptions & PageOptions) =>
    readPage<Execution>(raw.GET("/executions/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  return {
    createExecution: (sessionId, body, o) =>
      unwrap(
        raw.POST("/sessions/{session_id}/executions/", {
          body,
          params: { path: { session_id: sessionId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    listSessionExecutions: (sessionId, o) => itemsOf(sessionExecutionsPage(sessionId, o)),
    listSessionExecutionsPage: sessionExecutionsPage,
    listExecutions: (o) => itemsOf(executionsPage(o)),
    listExecutionsPage: executionsPage,
    executions: (o) => follow(o, executionsPage),
    getExecution: (execId, o) =>
      unwrap(
        raw.GET("/executions/{exec_id}", {
          params: { path: { exec_id: execId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    compareExecutions: (ids, o) =>
      unwrap(
        raw.GET("/executions/compare", {
          params: {
            header: fieldsHeader(o),
            query: {
              ids,
              baseline: o?.baseline,
              confidence: o?.confidence,
              min_difference: o?.minDifference,
              margin: o?.margin,
              warmup: o?.warmup === undefined ? undefined : String(o.warmup),
            },
          },
          querySerializer: LIST_QUERY_SERIALIZER,
          ...init(o),
        }),
      ),
    cancelExecution: (execId, o) =>
      unwrap(raw.POST("/executions/{exec_id}/cancel", { params: { path: { exec_id: execId }, header: fieldsHeader(o) }, ...init(o) })),
  };
}
