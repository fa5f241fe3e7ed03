import { describe, expect, it } from "vitest";
import type { StepKind, StepRow } from "../model/steps.js";
import { nextStep } from "./cell-steps.js";

const step = (kind: StepKind, attempt: number, state: StepRow["state"], error: string | null = null, error_code: string | null = null) =>
  ({ step: kind, attempt, state, error, error_code }) as StepRow;

// What a driver does with a cell is read from its execution's steps: a driver taking over begins nothing twice.
describe("nextStep", () => {
  it("prepares a cell with no step, runs it once prepared, and ends it once run", () => {
    expect(nextStep([], 0)).toEqual({ begin: "prepare" });
    expect(nextStep([step("prepare", 1, "succeeded")], 0)).toEqual({ begin: "run" });
    expect(nextStep([step("prepare", 1, "succeeded"), step("run", 1, "succeeded")], 0)).toEqual({ end: "completed" });
  });

  it("waits for a step already begun, wherever it runs, rather than beginning another", () => {
    const running = step("run", 1, "running");
    expect(nextStep([step("prepare", 1, "succeeded"), running], 3)).toEqual({ wait: running });
    expect(nextStep([step("prepare", 1, "running")], 0)).toEqual({ wait: step("prepare", 1, "running") });
  });

  it("begins a failed step again while it has retries left, counting that step's failures only", () => {
    const failedOnce = [step("prepare", 1, "failed", "exit 1")];
    expect(nextStep(failedOnce, 1)).toEqual({ begin: "prepare" });
    expect(nextStep(failedOnce, 0)).toEqual({ end: "failed", error: "prepare failed: exit 1" });
    const runs = [step("prepare", 1, "failed"), step("prepare", 2, "succeeded"), step("run", 1, "failed", "exit 4")];
    expect(nextStep(runs, 1)).toEqual({ begin: "run" });
    expect(nextStep([...runs, step("run", 2, "failed", "exit 4")], 1)).toEqual({ end: "failed", error: "run failed 2 times: exit 4" });
  });

  it("ends a cell whose step a user cancelled, retries or not: a retry would undo the cancel", () => {
    const cancelled = [step("prepare", 1, "succeeded"), step("run", 1, "failed", "run 1 of idle/idle5 was cancelled", "step_cancelled")];
    expect(nextStep(cancelled, 3)).toEqual({ end: "cancelled", error: "run 1 of idle/idle5 was cancelled" });
  });
});
