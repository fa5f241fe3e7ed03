import type { Execution } from "@benchwright/sdk";

type StepRecord = Execution["steps"][number];

/** How a state badge reads: its words, and the colour it takes (style.css's `state-<tone>`). */
export interface StateLook {
  text: string;
  tone: string;
  hint?: string;
}

const CANCELLED_HINT = "Cancelled, not failed: it was stopped before it ended";

/** A step attempt cancelled (its code `step_cancelled`) rather than failed by the tool or the target. */
function stepCancelled(step: Pick<StepRecord, "state" | "error_code">): boolean {
  return step.state === "failed" && step.error_code === "step_cancelled";
}

/**
 * An execution's state as its badge shows it: `run_failed` after a cancelled run reads
 * "run_failed · cancelled" in a neutral colour, not a failure's red, since nothing about the
 * target failed; any other state as it is.
 */
export function executionStateLook(e: Pick<Execution, "state" | "steps">): StateLook {
  const last = e.steps.at(-1);
  if ((e.state === "run_failed" || e.state === "prepare_failed") && last && stepCancelled(last)) {
    return { text: `${e.state} · cancelled`, tone: "cancelled", hint: CANCELLED_HINT };
  }
  return { text: e.state, tone: e.state };
}

/** A step attempt's state as its badge shows it: a cancelled attempt reads "cancelled", neutral. */
export function stepStateLook(step: Pick<StepRecord, "state" | "error_code">): StateLook {
  return stepCancelled(step) ? { text: "cancelled", tone: "cancelled", hint: CANCELLED_HINT } : { text: step.state, tone: step.state };
}
