import { describe, expect, it } from "vitest";
import { codeMeasuredText } from "./branch-text.js";

const commit = "3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d";

describe("codeMeasuredText", () => {
  it("says the branch and the commit, the commit whole or cut short for a table", () => {
    expect(codeMeasuredText({ branch: "feature/a", commit })).toBe(`feature/a at ${commit}`);
    expect(codeMeasuredText({ branch: "feature/a", commit }, true)).toBe("feature/a at 3f9c2d1e5a7b");
  });

  it("says either alone, and nothing when the run's client named neither", () => {
    expect(codeMeasuredText({ branch: "main" })).toBe("main");
    expect(codeMeasuredText({ commit, branch: null }, true)).toBe("commit 3f9c2d1e5a7b");
    expect(codeMeasuredText({})).toBeUndefined();
    expect(codeMeasuredText({ branch: null, commit: null })).toBeUndefined();
  });
});
