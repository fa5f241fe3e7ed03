import type { PlanRun, PlanRunProgress } from "@benchwright/contract";
import type { NewPlanRun, PlanCellState, PlanRunCellRow } from "../model/plan-runs.js";
import { cellView } from "./cell-view.js";
import { formatTimestamp } from "../time.js";

/** The cells that have ended: no step of theirs will begin again. */
export const ENDED_CELL_STATES: readonly PlanCellState[] = ["completed", "failed", "cancelled"];

/** A run as its resource shows it. */
export type PlanRunView = PlanRun;

/** A run as its resource shows it. Ids given ahead are shown once made: sessions once the run started, an execution once its cell did. */
export function planRunView(run: NewPlanRun, cells: readonly PlanRunCellRow[], now = new Date()): PlanRunView {
  return {
    id: run.id,
    plan_id: run.plan_id,
    state: run.state,
    created: formatTimestamp(new Date(run.created)),
    started: run.started ? formatTimestamp(new Date(run.started)) : null,
    ended: run.ended ? formatTimestamp(new Date(run.ended)) : null,
    progress: progressOf(cells, run.started, now),
    sessions: run.started ? run.sessions : {},
    // The contract's params are the catalog's values, which a cell's are (checked when the plan was made).
    cells: cells.map(cellView) as PlanRun["cells"],
    trigger: run.trigger ?? "api",
    scheduled_for: run.scheduled_for ? formatTimestamp(new Date(run.scheduled_for)) : null,
    ...(run.branch ? { branch: run.branch } : {}),
    ...(run.commit_id ? { commit: run.commit_id } : {}),
  };
}

/**
 * The cells counted by state, and the seconds left at the pace of the run so far: the time
 * since it started over the cells that ended (ran to an end), times the cells left.
 */
export function progressOf(cells: readonly Pick<PlanRunCellRow, "state">[], started: Date | null, now = new Date()): PlanRunProgress {
  const counts = new Map<PlanCellState, number>();
  for (const c of cells) counts.set(c.state, (counts.get(c.state) ?? 0) + 1);
  return progressOfCounts(counts, started, now);
}

/** progressOf from the cells counted by state (as the database counts a run's thousands). */
export function progressOfCounts(counts: ReadonlyMap<PlanCellState, number>, started: Date | null, now = new Date()): PlanRunProgress {
  const count = (...states: PlanCellState[]) => states.reduce((n, s) => n + (counts.get(s) ?? 0), 0);
  const progress = {
    total: [...counts.values()].reduce((n, c) => n + c, 0),
    pending: count("pending"),
    running: count("preparing", "running"),
    completed: count("completed"),
    failed: count("failed"),
    cancelled: count("cancelled"),
  };
  const ran = progress.completed + progress.failed;
  const left = progress.pending + progress.running;
  const elapsedS = started ? Math.max(0, (now.getTime() - new Date(started).getTime()) / 1000) : 0;
  const eta_seconds = left === 0 ? 0 : ran === 0 || !started ? null : Math.round((elapsedS / ran) * left);
  return { ...progress, eta_seconds };
}
