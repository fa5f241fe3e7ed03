// What the runner makes of what a host reports: the outcome of a step that wrote its rc, the
// error of a start that failed, and a process group id it may signal.
import { BenchwrightError } from "../errors.js";
import { SESSION_DELETED } from "../model/steps.js";
import type { Transport } from "../transport/transport.js";
import type { End } from "./follow-script.js";
import { parseStartFailure } from "./remote-scripts.js";
import type { StepOutcome } from "./step.js";

/** The outcome of a step that wrote its rc, with when that was by the host's clock, on ours. */
export function ended(end: End & { kind: "rc" }, logBytes: number): StepOutcome {
  const outcome: StepOutcome = { exitCode: end.code, timedOut: false, logBytes };
  if (end.ageMs !== undefined) {
    outcome.endedAt = Date.now() - end.ageMs;
    if (end.ranMs !== undefined) outcome.startedAt = outcome.endedAt - end.ranMs;
  }
  return outcome;
}

export function startFailed(dir: string, transport: Transport, stderr: string, exit?: number | null): BenchwrightError {
  const why = parseStartFailure(stderr);
  if (why === "nodir") return new BenchwrightError("step_failed", `Cannot create ${dir} on ${transport.description}`);
  const detail =
    why === "write"
      ? "cannot write its files"
      : why === "nopid"
        ? "it did not report its process id"
        : why === "retired"
          ? `${SESSION_DELETED}: its work dir was removed before the step launched`
          : stderr.trim() || `exit code ${exit}`;
  return new BenchwrightError("step_failed", `Cannot start the step in ${dir} on ${transport.description}: ${detail}`);
}

export function checkPgid(pgid: number): void {
  // `kill -- -1` would signal every process the user owns.
  if (!Number.isInteger(pgid) || pgid <= 1) throw new BenchwrightError("internal", `Invalid process group id ${pgid}`);
}
