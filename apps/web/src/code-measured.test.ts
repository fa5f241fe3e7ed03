import { describe, expect, it } from "vitest";
import { codeFacts } from "./code-measured.js";

const commit = "3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d";

describe("the code a run measured, as the execution and plan-run pages list it", () => {
  it("lists the branch and the whole commit, each under its page's test id", () => {
    expect(codeFacts({ branch: "feature/a", commit }, "execution")).toEqual([
      { label: "Branch", text: "feature/a", testid: "execution-branch" },
      { label: "Commit", text: commit, testid: "execution-commit" },
    ]);
  });

  it("lists either alone, and nothing when the run's client named neither", () => {
    expect(codeFacts({ branch: "main" }, "plan-run")).toEqual([{ label: "Branch", text: "main", testid: "plan-run-branch" }]);
    expect(codeFacts({ branch: null, commit }, "plan-run").map((f) => f.label)).toEqual(["Commit"]);
    expect(codeFacts({}, "execution")).toEqual([]);
  });
});
