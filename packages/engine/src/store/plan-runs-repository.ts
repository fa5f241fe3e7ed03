import type { NewEvent } from "../model/events.js";
import type { CellChange, NewPlanRun, PlanRunCellRow, PlanRunRow, PlanRunState } from "../model/plan-runs.js";
import type { Db } from "./db.js";
import type { EventAppender } from "./event-appender.js";
import {
  cancelPendingCells,
  cancelPlanRun,
  cellsOfRuns,
  cellStateCounts,
  claimPlanRun,
  insertPlanRun,
  insertPlanRunCells,
  movePlanRun,
  planRunById,
  planRunsPage,
  releasePlanRuns,
  renewPlanRunLease,
  unheldPlanRuns,
  updatePlanRunCell,
} from "./sql/plan-runs-sql.js";
import { run } from "./sql/sql.js";

/** A run with its cells, as read. */
export interface PlanRunWithCells extends PlanRunRow {
  cells: PlanRunCellRow[];
}

/**
 * The plans' runs and their cells. A run is driven by the one process that holds its lease
 * (`owner`, `lease_until`, timed by the database's clock as the steps' are); every write of
 * its driver is conditional on that lease, so a driver that lost it changes nothing.
 */
export class PlanRunsRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  /** The run and its cells, together or not at all; in `tx` when given (a caller's transaction that records more with it). */
  async insert(row: NewPlanRun, cells: PlanRunCellRow[], tx?: Db): Promise<void> {
    const write = async (db: Db) => {
      await run(db, insertPlanRun(row));
      // In slices: one statement's parameters are bounded (65535).
      for (let i = 0; i < cells.length; i += 1000) await run(db, insertPlanRunCells(cells.slice(i, i + 1000)));
    };
    await (tx ? write(tx) : this.db.transaction(write));
  }

  async get(planId: string, runId: string): Promise<PlanRunWithCells | undefined> {
    const [row] = await run<PlanRunRow>(this.db, planRunById(planId, runId));
    return row && (await this.withCells([row]))[0];
  }

  async page(planId: string, afterSeq: string | undefined, limit: number | undefined): Promise<PlanRunWithCells[]> {
    return this.withCells(await run<PlanRunRow>(this.db, planRunsPage(planId, afterSeq, limit)));
  }

  /** Asks the run to stop: its state after (`cancelling`, or an ended state left as it was); undefined when there is no such run. */
  async cancel(planId: string, runId: string): Promise<PlanRunState | undefined> {
    return (await run<{ state: PlanRunState }>(this.db, cancelPlanRun(planId, runId)))[0]?.state;
  }

  async unheld(limit: number): Promise<string[]> {
    return (await run<{ id: string }>(this.db, unheldPlanRuns(limit))).map((r) => r.id);
  }

  /** Takes a run nobody holds; null when someone alive holds it or it has ended. */
  async claim(runId: string, owner: string, leaseMs: number): Promise<PlanRunRow | null> {
    return (await run<PlanRunRow>(this.db, claimPlanRun(runId, owner, leaseMs)))[0] ?? null;
  }

  /** The run's state, its lease extended; null when the lease was lost. */
  async renew(runId: string, owner: string, leaseMs: number): Promise<PlanRunState | null> {
    return (await run<{ state: PlanRunState }>(this.db, renewPlanRunLease(runId, owner, leaseMs)))[0]?.state ?? null;
  }

  /** Lets `owner`'s runs (only `runId` when given) go, or every run when `owner` is unset; others may take them at once. */
  async release(owner?: string, runId?: string): Promise<number> {
    return (await run(this.db, releasePlanRuns(owner, runId))).length;
  }

  /** Moves the run (and appends `event` with the move); null when it was not in `from` or the lease was lost. */
  async move(
    runId: string,
    owner: string,
    move: { from: readonly PlanRunState[]; to: PlanRunState; stamp?: "started" | "ended" },
    event?: NewEvent,
  ): Promise<PlanRunRow | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await run<PlanRunRow>(tx, movePlanRun(runId, owner, move.from, move.to, move.stamp ?? null));
      if (row && event) await this.events.appendAll([event], tx);
      return row ?? null;
    });
  }

  /**
   * Records a cell's change while `owner` holds the run (null when it does not), with the event
   * `eventOf` makes of the cell after (reading the run's cells only when it needs them), in the same transaction.
   */
  async updateCell(
    runId: string,
    seq: number,
    owner: string,
    change: CellChange,
    eventOf?: (cell: PlanRunCellRow, states: () => Promise<Array<Pick<PlanRunCellRow, "state">>>) => Promise<NewEvent | undefined>,
  ): Promise<PlanRunCellRow | null> {
    return this.db.transaction(async (tx) => {
      const [cell] = await run<PlanRunCellRow>(tx, updatePlanRunCell(runId, seq, owner, change));
      // The run's progress counts its cells' states: counted by the database, as a run may have thousands.
      const states = async () =>
        (await run<{ state: PlanRunCellRow["state"]; n: number }>(tx, cellStateCounts(runId))).flatMap(({ state, n }) =>
          Array.from({ length: n }, () => ({ state })),
        );
      const event = cell && (await eventOf?.(cell, states));
      if (event) await this.events.appendAll([event], tx);
      return cell ?? null;
    });
  }

  /**
   * Cancels up to `limit` of the run's pending cells at once while `owner` holds the run, with
   * the events `eventsOf` makes of them (given the cells, in order, and the run's cell counts by
   * state after), in one transaction; the cells cancelled (none: none was pending, or the lease was lost).
   */
  async cancelPending(
    runId: string,
    owner: string,
    error: string,
    limit: number,
    eventsOf: (cells: PlanRunCellRow[], counts: Map<PlanRunCellRow["state"], number>) => NewEvent[],
  ): Promise<PlanRunCellRow[]> {
    return this.db.transaction(async (tx) => {
      const cells = (await run<PlanRunCellRow>(tx, cancelPendingCells(runId, owner, error, limit))).sort((a, b) => a.seq - b.seq);
      if (cells.length === 0) return [];
      const counts = new Map((await run<{ state: PlanRunCellRow["state"]; n: number }>(tx, cellStateCounts(runId))).map(({ state, n }) => [state, Number(n)]));
      await this.events.appendAll(eventsOf(cells, counts), tx);
      return cells;
    });
  }

  private async withCells(rows: PlanRunRow[]): Promise<PlanRunWithCells[]> {
    if (rows.length === 0) return [];
    const cells = await run<PlanRunCellRow>(this.db, cellsOfRuns(rows.map((r) => r.id)));
    return rows.map((r) => ({ ...r, cells: cells.filter((c) => c.run_id === r.id) }));
  }
}
