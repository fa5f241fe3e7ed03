import { describe, expect, it } from "vitest";
import type { ParamDeclaration } from "@benchwright/catalog";
import type { ExecutionRow } from "../model/executions.js";
import { stepParams } from "./step-work.js";

const declared: Record<string, ParamDeclaration> = {
  duration: { type: "integer", default: 10 },
  threads: { type: "integer", default: 1 },
};
const row = (params: ExecutionRow["params"]) => ({ params }) as ExecutionRow;

describe("the params a step gives its scripts", () => {
  it("are the values stored at the execution's creation, resolved then", () => {
    expect(stepParams(row({ duration: 30, threads: 4 }), declared)).toEqual({ duration: 30, threads: 4 });
  });

  it("fill a parameter the workload declares since the row was written with its default", () => {
    expect(stepParams(row({ duration: 30 }), declared)).toEqual({ duration: 30, threads: 1 });
    // A row from before parameters existed holds none.
    expect(stepParams(row({}), declared)).toEqual({ duration: 10, threads: 1 });
  });

  it("pass a stored value on even when the workload no longer declares it", () => {
    expect(stepParams(row({ size: "1G" }), undefined)).toEqual({ size: "1G" });
  });
});
