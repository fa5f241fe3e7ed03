import { describe, expect, it } from "vitest";
import { executionStateLook, stepStateLook } from "./state-look.js";

const cancelledRun = {
  step: "run" as const,
  attempt: 2,
  state: "failed" as const,
  error: "run 2 of idle/idle was cancelled at …",
  error_code: "step_cancelled",
};
const failedRun = { step: "run" as const, attempt: 1, state: "failed" as const, error: "exit 1", error_code: "step_failed" };

describe("how a state badge looks", () => {
  it("shows an execution whose last step was cancelled as cancelled, in a neutral colour, not a failure's", () => {
    expect(executionStateLook({ state: "run_failed", steps: [failedRun, cancelledRun] })).toMatchObject({ text: "run_failed · cancelled", tone: "cancelled" });
    expect(stepStateLook(cancelledRun)).toMatchObject({ text: "cancelled", tone: "cancelled" });
  });

  it("keeps a failure red, and every other state as it is", () => {
    expect(executionStateLook({ state: "run_failed", steps: [cancelledRun, failedRun] })).toEqual({ text: "run_failed", tone: "run_failed" });
    expect(executionStateLook({ state: "completed", steps: [] })).toEqual({ text: "completed", tone: "completed" });
    expect(stepStateLook(failedRun)).toEqual({ text: "failed", tone: "failed" });
  });
});
