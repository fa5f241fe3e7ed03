import type { ExecutionState } from "../model/executions.js";
import type { StepKind } from "../model/steps.js";

/** Where each step may start from, and where it ends. */
export const TRANSITIONS: Record<StepKind, { from: ExecutionState[]; during: ExecutionState; ok: ExecutionState; failed: ExecutionState }> = {
  // Prepare again after it succeeded or a run, as the Benchmarking Suite allowed: a new attempt that installs and loads anew.
  prepare: {
    from: ["created", "prepare_failed", "prepared", "completed", "run_failed"],
    during: "preparing",
    ok: "prepared",
    failed: "prepare_failed",
  },
  run: { from: ["prepared", "completed", "run_failed"], during: "running", ok: "completed", failed: "run_failed" },
};
