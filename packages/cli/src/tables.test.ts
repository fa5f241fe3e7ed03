import type { Execution } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { executionsTable, stepsTable } from "./tables.js";

const base = {
  session_id: "3f1c6f1e-8a0e-4f7e-9a51-6f0d2b7c9a11",
  created: "2026-11-21 10:15:00",
  test: { tool_id: "idle", workload_id: "idle5", tool_name: "Idle", workload_name: "Idle 5 s", workload_description: "Sleeps." },
  exec_env: { vms: [] },
  metrics: [],
} as const;
const ran = { step: "run", attempt: 1, state: "succeeded", started: "2026-11-21 10:15:02", duration: "0.5", exit_code: 0 } as const;
const cancelled = {
  ...ran,
  attempt: 2,
  state: "failed",
  exit_code: null,
  error: "run 2 of idle/idle5 was cancelled at …",
  error_code: "step_cancelled",
} as const;

describe("the executions table", () => {
  it("shows each execution's params: two runs of one workload differ by them", () => {
    const text = executionsTable([
      { ...base, id: "a", state: "completed", params: { seconds: 0 }, steps: [ran] },
      { ...base, id: "b", state: "completed", params: { seconds: 0.5 }, steps: [ran] },
    ] as unknown as Execution[]);
    const [head, a, b] = text.split("\n");
    expect(head).toMatch(/^ID\s+TOOL\s+WORKLOAD\s+STATE\s+PARAMS\s+CREATED/);
    expect(a).toMatch(/completed\s+seconds=0\s+2026/);
    expect(b).toMatch(/completed\s+seconds=0.5\s+2026/);
  });

  it("says a run_failed execution whose run was cancelled was cancelled, and so does its step", () => {
    const execution = { ...base, id: "c", state: "run_failed", params: {}, steps: [ran, cancelled] } as unknown as Execution;
    expect(executionsTable([execution]).split("\n")[1]).toMatch(/run_failed \(cancelled\)/);
    expect(stepsTable(execution).split("\n")[2]).toMatch(/^run\s+2\s+cancelled\s/);
  });
});
