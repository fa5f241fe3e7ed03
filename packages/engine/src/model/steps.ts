import type { Provenance, StepAttempt } from "@benchwright/contract";
import type { StoredMetric } from "./metrics.js";

export type StepKind = StepAttempt["step"];
type StepState = StepAttempt["state"];

export interface StepRow {
  execution_id: string;
  step: StepKind;
  attempt: number;
  state: StepState;
  started: Date;
  duration: number | null;
  exit_code: number | null;
  error: string | null;
  log_file: string;
  metrics: StoredMetric[] | null;
  /** The process that follows the step now, and until when its lease holds. */
  owner: string | null;
  lease_until: Date | null;
  /** The machine whose part of the step is under way (in which repetition of a repeated run), its detached process group, and where its log part began. */
  machine_id: string | null;
  /** Which role's part on that machine (`client`, `client-2`), for a workload with roles. */
  role: string | null;
  repetition: number | null;
  pgid: number | null;
  machine_log_start: string | number | null;
  log_bytes: string | number;
  /** For a failed step: the problem code and its extra members (exit code, output tail...). */
  error_code: string | null;
  error_extras: Record<string, unknown> | null;
  /** Set by a cancel request while the step runs: how its failure is to read (`cancelled at ... (request ...)`); its follower stops it. */
  cancel_requested: string | null;
  /** What produced a run attempt's figures, recorded before it measures; null for a prepare, and for a run from before provenance. */
  provenance: Provenance | null;
  /**
   * Where its first driver ran (`<host>:<data dir>`, see steps/work-place.ts): parts on the
   * engine's own host (the local provider) run below that data dir, which only a driver in the
   * same place reaches. Null for rows from before it was recorded.
   */
  place: string | null;
}

/** The lease a step is begun or claimed with: its owner, how long it holds, and where the owner runs (recorded by the first). */
export interface StepClaim {
  owner: string;
  leaseMs: number;
  place?: string;
}

/** How a step attempt ended. */
export interface StepEnd {
  state: Exclude<StepState, "running">;
  duration: number;
  exit_code: number | null;
  error: string | null;
  metrics: StoredMetric[] | null;
  error_code?: string | null;
  error_extras?: Record<string, unknown> | null;
}

/** Names one attempt of one step. */
export interface StepKey {
  execution_id: string;
  step: StepKind;
  attempt: number;
}

/** A step attempt as an execution's view shows it; a prepare's with its metrics (the boot times of the machines it made). */
export type StepSummary = Pick<StepRow, "step" | "attempt" | "state" | "started" | "duration" | "exit_code" | "error"> & {
  /** A failed attempt's problem code (absent from summaries read before it was aggregated). */
  error_code?: string | null;
  metrics?: StoredMetric[] | null;
  /** A run's (see StepRow.provenance). */
  provenance?: Provenance | null;
};

/** Where a running step's machine part is: enough for a new owner to re-attach to it. */
export interface StepHandle {
  machine_id: string;
  role?: string;
  repetition?: number;
  pgid: number | null;
  machine_log_start: number;
  metrics: StoredMetric[];
  /** What will produce the run's figures, recorded with its first handle (one write less per run); a step that has one keeps it. */
  provenance?: Provenance;
}

/** Why a step ended failed when its session's DELETE began while it ran. */
export const SESSION_DELETED = "the session was deleted while the step ran";
