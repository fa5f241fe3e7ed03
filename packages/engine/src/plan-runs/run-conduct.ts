import type { SessionCreate } from "@benchwright/contract";
import type { EngineLog } from "../engine-log.js";
import { isBenchwrightError } from "../errors.js";
import type { NewEvent } from "../model/events.js";
import type { PlanRunCellRow, PlanRunRow, PlanRunState } from "../model/plan-runs.js";
import type { PlanRow } from "../model/plans.js";
import type { SecretBox } from "../secrets/secret-box.js";
import { setImmediate as yieldToEvents } from "node:timers/promises";
import { sleep } from "../transport/backoff.js";
import { driveCell, type RecordCell } from "./cell-steps.js";
import { drivePrecisionCell, type PrecisionCollaborators } from "./precision-cell.js";
import { cellRepetitions } from "../plans/plan-repetitions.js";
import type { RunLease } from "./run-lease.js";
import { ENDED_CELL_STATES, planRunView, progressOf, progressOfCounts, type PlanRunView } from "./run-view.js";

export interface RunCollaborators extends PrecisionCollaborators {
  /** Opens inline targets' configurations, sealed in the plan's row. */
  secrets: SecretBox;
  /** Makes a run's session with the id and owner given (and the body's sharing), all in the session's insert. */
  createSession: (body: SessionCreate, options: { id: string; owner: string }) => Promise<unknown>;
  deleteSession: (id: string) => Promise<void>;
  /**
   * Asks the running steps of these executions to cancel with `reason`, without waiting: a
   * cancelled run's steps then end `step_cancelled`, not failed by their session's DELETE.
   */
  cancelSteps?: (executionIds: string[], reason: string) => Promise<void>;
  /** Told once a run has ended here (its report can be made ready); never awaited by the driver. */
  onEnded?: (run: Pick<PlanRunRow, "id" | "plan_id">) => void;
  /**
   * Told once a run its schedule started has ended failed, or cancelled with a failed cell (the
   * alerts' `schedule_failed`), by the driver that recorded the end; never awaited by the driver.
   */
  onScheduledRunFailed?: (run: PlanRunView, plan: PlanRow) => void | Promise<void>;
  log: EngineLog;
  /** How long a cell waits before it asks again for room under its starter's quotas (a session, a step); default 1 s. */
  quotaWaitMs?: number;
  /** Pending cells cancelled per statement when a run stops (default 100); tests make it small. */
  cancelBatch?: number;
}

/** Cancels a batch of the run's pending cells with `error`, their events with them; the cells cancelled (none: none left). */
type CancelPending = (error: string) => Promise<PlanRunCellRow[]>;

/**
 * Drives one run while `lease` holds it, from wherever the store says it is: drives its cells
 * as the plan's concurrency allows, each target's session opened as its first cell begins and
 * (unless the plan keeps them) deleted once its cells have ended, and records how it ended. Returns when the run has
 * ended or the lease was let go (then another driver goes on from the store).
 */
export async function conductRun(c: RunCollaborators, lease: RunLease, claimed: PlanRunRow): Promise<void> {
  const { store } = c;
  const plan = await store.plans.get(claimed.plan_id);
  // A plan is not deleted while a run of it is going (and its runs go with it).
  if (!plan) return;
  let run: PlanRunRow | null = claimed;
  if (run.state === "pending") {
    const event = runEvent("plan_run.started", run, { sessions: run.sessions, total: plan.body.cells * plan.body.targets.length });
    run = await store.planRuns.move(run.id, lease.owner, { from: ["pending"], to: "running", stamp: "started" }, event);
    // Not pending any more: lost, or cancelled meanwhile (then its state is read again below).
    run ??= (await store.planRuns.get(claimed.plan_id, claimed.id)) ?? null;
    if (!run || run.owner !== lease.owner) return;
  }
  const held = run;
  if (held.state === "cancelling") lease.cancelling = true;
  const cells = (await store.planRuns.get(held.plan_id, held.id))?.cells ?? [];
  const started = held.started ?? new Date();
  const record: RecordCell = (cell, change) =>
    store.planRuns.updateCell(held.id, cell.seq, lease.owner, change, async (after, all) =>
      ENDED_CELL_STATES.includes(after.state) && change.state
        ? runEvent("plan_run.progress", held, {
            target: after.target,
            benchmark: after.benchmark,
            cell: after.cell,
            state: after.state,
            execution_id: after.attempts > 0 ? after.execution_id : null,
            attempts: after.attempts,
            progress: progressOf(await all(), started),
          })
        : undefined,
    );
  const cancelPending: CancelPending = (error) =>
    store.planRuns.cancelPending(held.id, lease.owner, error, c.cancelBatch ?? 100, (batch, after) =>
      // One event per cell, as each ends, its progress as it was then: the counts after the batch, less the cells after it.
      batch.map((cell, i) => {
        const later = batch.length - 1 - i;
        const counts = new Map(after).set("cancelled", (after.get("cancelled") ?? 0) - later).set("pending", (after.get("pending") ?? 0) + later);
        return runEvent("plan_run.progress", held, {
          target: cell.target,
          benchmark: cell.benchmark,
          cell: cell.cell,
          state: cell.state,
          execution_id: null,
          attempts: cell.attempts,
          progress: progressOfCounts(counts, started),
        });
      }),
    );
  await driveCells(c, lease, plan, held, cells, record, cancelPending);
  if (lease.signal.aborted) return;
  await finish(c, lease, plan, held);
}

/**
 * Opens a target's session once, as the first of its cells begins, with the id the run gave it,
 * as its starter's and shared (a plan is a team's campaign: every principal who reads the run
 * reads its sessions and results). Rejects with why it could not be opened. Over the starter's
 * session quota it waits for room (a session deleted as its target's cells end, this run's or
 * another), unless the plan keeps its sessions: then this run's own would never make room.
 */
function sessionOpener(c: RunCollaborators, lease: RunLease, plan: PlanRow, run: PlanRunRow): (label: string) => Promise<void> {
  const opening = new Map<string, Promise<void>>();
  let inline: Record<string, unknown> | undefined;
  const open = async (label: string) => {
    const id = run.sessions[label];
    if (await c.store.sessions.get(id)) return;
    const target = plan.body.targets.find((t) => t.label === label);
    inline ??= plan.inline_sealed ? c.secrets.open<Record<string, unknown>>(plan.inline_sealed) : {};
    const body = (
      target?.inline ? { config: inline[label], shared: true } : { provider: target?.provider, service: target?.service, shared: true }
    ) as SessionCreate;
    for (;;) {
      try {
        await c.createSession(body, { id, owner: run.started_by });
        return;
      } catch (e) {
        if (isBenchwrightError(e) && e.code === "quota_exceeded" && !plan.body.keep_sessions && !lease.cancelling) {
          await sleep(c.quotaWaitMs ?? 1_000, lease.signal);
          continue;
        }
        throw new Error(`its session could not be opened: ${(e as Error).message}`);
      }
    }
  };
  return (label) => {
    let opened = opening.get(label);
    if (!opened) opening.set(label, (opened = open(label)));
    return opened;
  };
}

/** Drives the cells not ended: those a driver before began first, then the pending ones in order, as many at once as the plan allows. */
async function driveCells(
  c: RunCollaborators,
  lease: RunLease,
  plan: PlanRow,
  run: PlanRunRow,
  cells: PlanRunCellRow[],
  record: RecordCell,
  cancelPending: CancelPending,
): Promise<void> {
  const { concurrency, retries, on_failure, precision, budget } = plan.body;
  const repetitions = cellRepetitions(plan.body);
  const perTarget = concurrency.per_target ?? 1;
  const overall = concurrency.overall ?? 4;
  const active = new Map<number, Promise<void>>();
  const busy = new Map<string, number>();
  const latest = new Map(cells.map((cell) => [cell.seq, cell]));
  const tracked: RecordCell = async (cell, change) => {
    const after = await record(cell, change);
    if (after) latest.set(after.seq, after);
    return after;
  };
  const openSession = sessionOpener(c, lease, plan, run);
  const begin = (cell: PlanRunCellRow) => {
    busy.set(cell.target, (busy.get(cell.target) ?? 0) + 1);
    const cellPlan = { sessionId: run.sessions[cell.target], repetitions, retries, quotaWaitMs: c.quotaWaitMs, branch: run.branch, commit: run.commit_id };
    const work = openSession(cell.target).then(
      // Cancelled while its session was opened: a pending cell is left to the cancel's batches.
      () =>
        lease.cancelling && cell.state === "pending"
          ? undefined
          : precision
            ? drivePrecisionCell(c, lease, { ...cellPlan, precision, budget }, cell, tracked)
            : driveCell(c, lease, cellPlan, cell, tracked),
      async (e: Error) => {
        if (lease.signal.aborted || (lease.cancelling && cell.state === "pending")) return;
        await tracked(cell, { state: "failed", error: e.message });
      },
    );
    const done = work
      .catch((e: Error) => c.log(`plan run ${run.id}: cell ${cell.seq} stopped: ${e.message}`, { level: "warn" }))
      .finally(() => {
        active.delete(cell.seq);
        busy.set(cell.target, (busy.get(cell.target) ?? 1) - 1);
      });
    active.set(cell.seq, done);
  };
  let deleting: Promise<void> | undefined;
  // A target's session, once its cells have all ended, deleted at once (unless kept): it makes room
  // under the starter's session quota for the next target's.
  const closing = new Map<string, Promise<void>>();
  const closeDone = () => {
    if (plan.body.keep_sessions || lease.cancelling) return;
    // One pass over the cells (a run may have thousands): each target's cells not ended.
    const notEnded = new Map<string, number>();
    for (const cell of latest.values()) notEnded.set(cell.target, (notEnded.get(cell.target) ?? 0) + (ENDED_CELL_STATES.includes(cell.state) ? 0 : 1));
    for (const [label, left] of notEnded) {
      if (left === 0 && !closing.has(label) && (busy.get(label) ?? 0) === 0) closing.set(label, deleteSession(c, run, label));
    }
  };
  for (;;) {
    if (lease.signal.aborted) break;
    const stopping = lease.cancelling || (on_failure === "stop" && [...latest.values()].some((cell) => cell.state === "failed"));
    // Deleting the sessions stops their steps, wherever they run; the cells then end as cancelled.
    // The steps are asked to cancel first, so that they end cancelled too (not failed by the DELETE).
    if (lease.cancelling) deleting ??= cancelSteps(c, run, [...latest.values()]).then(() => deleteSessions(c, run));
    if (stopping) {
      // The pending cells (thousands, maybe) in batches, set-based, each its own short
      // transaction, yielding between them so that the server goes on answering.
      const error = lease.cancelling ? "the run was cancelled" : "a cell failed and the plan stops on failure";
      for (let batch = await cancelPending(error); batch.length > 0 && !lease.signal.aborted; batch = await cancelPending(error)) {
        for (const cell of batch) latest.set(cell.seq, cell);
        await yieldToEvents();
      }
    }
    for (const cell of latest.values()) {
      if (active.has(cell.seq) || ENDED_CELL_STATES.includes(cell.state)) continue;
      // Left pending by a batch (the lease was lost): the next driver cancels it.
      if (cell.state === "pending" && stopping) continue;
      const resumed = cell.state !== "pending";
      if (resumed || (active.size < overall && (busy.get(cell.target) ?? 0) < perTarget)) begin(cell);
    }
    closeDone();
    if (active.size === 0 && [...latest.values()].every((cell) => ENDED_CELL_STATES.includes(cell.state))) break;
    if (active.size === 0 && lease.signal.aborted) break;
    // A cell's end frees room; a cancellation is seen at the next look.
    await Promise.race([...active.values(), sleep(500, lease.signal).catch(() => {})]);
  }
  await Promise.allSettled([...active.values(), deleting, ...closing.values()]);
}

/** Asks the steps of the run's cells not ended to cancel; one that cannot be asked is stopped by its session's DELETE all the same. */
async function cancelSteps(c: RunCollaborators, run: PlanRunRow, cells: PlanRunCellRow[]): Promise<void> {
  const ids = cells.filter((cell) => !ENDED_CELL_STATES.includes(cell.state) && cell.attempts > 0).map((cell) => cell.execution_id);
  await c
    .cancelSteps?.(ids, `cancelled at ${new Date().toISOString()}: its plan run ${run.id} was cancelled`)
    .catch((e: Error) =>
      c.log(`plan run ${run.id}: its steps could not be asked to cancel: ${e.message}; their sessions' DELETE stops them`, { level: "warn" }),
    );
}

/** Deletes the run's sessions (those made); a session already gone is no matter. */
async function deleteSessions(c: RunCollaborators, run: PlanRunRow): Promise<void> {
  await Promise.all(Object.keys(run.sessions).map((label) => deleteSession(c, run, label)));
}

/** Deletes the session of the run's target `label` (when made); one already gone is no matter. */
async function deleteSession(c: RunCollaborators, run: PlanRunRow, label: string): Promise<void> {
  const id = run.sessions[label];
  await c.deleteSession(id).catch((e: unknown) => {
    if (isBenchwrightError(e) && (e.code === "not_found" || e.code === "wrong_state")) return;
    c.log(`plan run ${run.id}: the session of ${label} (${id}) could not be deleted: ${(e as Error).message}; DELETE it to retry`, {
      session_id: id,
      level: "warn",
    });
  });
}

/** Deletes the sessions unless kept, then records the run's end and its event. */
async function finish(c: RunCollaborators, lease: RunLease, plan: PlanRow, run: PlanRunRow): Promise<void> {
  const now = await c.store.planRuns.get(run.plan_id, run.id);
  if (!now || now.owner !== lease.owner) return;
  const cancelled = now.state === "cancelling";
  if (cancelled || !plan.body.keep_sessions) await deleteSessions(c, run);
  const to: PlanRunState = cancelled ? "cancelled" : now.cells.some((cell) => cell.state !== "completed") ? "failed" : "completed";
  const event = runEvent("plan_run.ended", run, { state: to, progress: progressOf(now.cells, run.started) });
  const ended = await c.store.planRuns.move(run.id, lease.owner, { from: ["running", "cancelling"], to, stamp: "ended" }, event);
  // Cancelled between the read and the move: the next driver (this one, at its next sweep) ends it as cancelled.
  if (!ended) return;
  c.log(`plan run ${run.id} of plan ${run.plan_id} ${to}`);
  c.onEnded?.(run);
  if (ended.trigger === "schedule" && (to === "failed" || now.cells.some((cell) => cell.state === "failed")))
    tellScheduledRunFailed(c, planRunView(ended, now.cells), plan);
}

/** Tells of a scheduled run that failed; what the listener does (an alert) is its own affair: its failure is only logged. */
function tellScheduledRunFailed(c: RunCollaborators, run: PlanRunView, plan: PlanRow): void {
  const failed = (e: unknown) => c.log(`plan run ${run.id}: its failure could not be told: ${(e as Error)?.message ?? e}`, { level: "warn" });
  try {
    void Promise.resolve(c.onScheduledRunFailed?.(run, plan)).catch(failed);
  } catch (e) {
    failed(e);
  }
}

function runEvent<T extends "plan_run.started" | "plan_run.progress" | "plan_run.ended">(
  type: T,
  run: Pick<PlanRunRow, "id" | "plan_id">,
  data: Record<string, unknown>,
): NewEvent {
  return { type, session_id: null, execution_id: null, data: { plan_id: run.plan_id, run_id: run.id, ...data } } as NewEvent;
}
