import type { RunMetricsRow } from "../model/metrics.js";
import type { Db } from "./db.js";
import type { ExecutionWhere } from "./list-where.js";
import { runMetrics } from "./sql/metrics-sql.js";
import { run } from "./sql/sql.js";

/** The measured results, as the metrics export reads them. */
export class MetricsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The successful run attempts of the executions `where` selects (a page of them), with what
   * the metrics export writes beside each figure: one row per attempt, in the order of the
   * executions then of the attempts, and one row without an attempt for an execution that has
   * none (so that the page's last `seq` is known).
   */
  async runMetrics(where: ExecutionWhere): Promise<RunMetricsRow[]> {
    return run<RunMetricsRow>(this.db, runMetrics(where));
  }
}
