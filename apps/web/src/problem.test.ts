import type { Problem } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { fieldErrors } from "./problem.js";

describe("fieldErrors", () => {
  it("gives each failing parameter's messages by its name", () => {
    const problem: Problem = {
      type: "https://benchwright.dev/problems/validation-failed",
      title: "Request validation failed",
      status: 400,
      code: "validation_failed",
      errors: [
        { path: "/body/params/seconds", message: "must be at most 100" },
        { path: "/body/params/seconds", message: "must be a number" },
        { path: "/body/params/a~1b", message: "is not declared" },
        { path: "/body/workload", message: "must have required property 'workload'" },
      ],
    };
    expect([...fieldErrors(problem, "/body/params/")]).toEqual([
      ["seconds", "must be at most 100; must be a number"],
      ["a/b", "is not declared"],
    ]);
    expect(fieldErrors(undefined, "/body/params/").size).toBe(0);
  });
});
