import type { Execution, Workload } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { runWords } from "./run-title.js";

const idle5: Workload = {
  id: "idle5",
  workload_name: "Idle 5 s",
  workload_description: "Sleeps 5 seconds.",
  categories: ["idle"],
  params: [{ name: "seconds", type: "number", default: 5, min: 0, max: 100, unit: "s" }],
};
const execution = (params: Execution["params"], repetitions?: Execution["repetitions"]): Execution => ({
  id: "9b2e4d6a-1c3f-4e5a-8b7d-0a1b2c3d4e5f",
  session_id: "3f1c6f1e-8a0e-4f7e-9a51-6f0d2b7c9a11",
  state: "completed",
  created: "2026-11-21 10:15:00",
  test: { tool_id: "idle", workload_id: "idle5", tool_name: "Idle", workload_name: "Idle 5 s", workload_description: "Sleeps 5 seconds." },
  params,
  ...(repetitions ? { repetitions } : {}),
  exec_env: { vms: [] },
  metrics: [],
  steps: [],
});

describe("runWords", () => {
  it("names the parameters a run used where they are not the workload's defaults, not the defaults' description alone", () => {
    const words = runWords(execution({ seconds: 1 }), idle5);
    expect(words.title).toBe("Idle / idle5, seconds = 1 s");
    expect(words.title).not.toContain("5 s");
    expect(words.description).toBe("Ran with seconds = 1 s (default 5 s). The workload as declared: Sleeps 5 seconds.");
  });

  it("keeps the workload's own words when the run used its defaults", () => {
    expect(runWords(execution({ seconds: 5 }), idle5)).toEqual({ title: "Idle / Idle 5 s", description: "Sleeps 5 seconds." });
  });

  it("says how the run repeats", () => {
    expect(runWords(execution({ seconds: 1 }, { count: 3 }), idle5).title).toBe("Idle / idle5, seconds = 1 s, ×3");
    expect(runWords(execution({ seconds: 5 }, { until_cv: 0.02, min: 3, max: 10 }), idle5).title).toBe("Idle / Idle 5 s, until CV ≤ 0.02 (3 to 10 times)");
  });

  it("names every parameter when the workload's declarations are unknown (a tool since removed)", () => {
    expect(runWords(execution({ seconds: 1 })).title).toBe("Idle / idle5, seconds = 1");
    expect(runWords(execution({})).title).toBe("Idle / Idle 5 s");
  });
});
