import type { SeriesPointRow, SeriesRow } from "../model/series.js";
import type { Db } from "./db.js";
import { branchHistory, executionGatePoints, ingestGatePoints, readableExecutions } from "./sql/gate-sql.js";
import { run } from "./sql/sql.js";

/** A point a gate compares (an ingest's or an execution's) with its series' identity. */
export interface GatePointRow
  extends Pick<SeriesPointRow, "series_id" | "seq" | "ingest_id" | "execution_id" | "branch" | "commit_id" | "at" | "n" | "mean" | "ci_low" | "ci_high"> {
  /** The label of the plan run's target the execution was a cell of; null otherwise. */
  run_target: string | null;
  series: Pick<SeriesRow, "tool" | "workload" | "params" | "metric" | "tags" | "provider" | "service_type" | "unit" | "better">;
}

/** What a gate reads: the points it gates and the history of their series on a branch (gate/). */
export class GatePointsRepository {
  constructor(private readonly db: Db) {}

  ofIngest(ingestId: string): Promise<GatePointRow[]> {
    return run<GatePointRow>(this.db, ingestGatePoints(ingestId));
  }

  ofExecutions(executionIds: readonly string[]): Promise<GatePointRow[]> {
    return run<GatePointRow>(this.db, executionGatePoints(executionIds));
  }

  /** The ids among these of executions that exist and `visibleTo` (when given) may read. */
  async readable(executionIds: readonly string[], visibleTo: string | undefined): Promise<Set<string>> {
    return new Set((await run<{ id: string }>(this.db, readableExecutions(executionIds, visibleTo))).map((r) => r.id));
  }

  /** The means of a series' latest points on a branch, newest first (see branchHistory). */
  history(q: Parameters<typeof branchHistory>[0]): Promise<Array<{ seq: number; mean: number; commit_id: string | null }>> {
    return run<{ seq: number; mean: number; commit_id: string | null }>(this.db, branchHistory(q));
  }
}
