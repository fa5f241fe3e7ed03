import { describe, expect, it } from "vitest";
import { startable } from "./execution-actions.js";

describe("startable", () => {
  it("offers the steps the API lets each state start, and none while one runs", () => {
    expect(startable("created")).toEqual({ prepare: true, run: false, busy: false });
    expect(startable("prepared")).toEqual({ prepare: true, run: true, busy: false });
    expect(startable("run_failed")).toEqual({ prepare: true, run: true, busy: false });
    expect(startable("prepare_failed")).toEqual({ prepare: true, run: false, busy: false });
    expect(startable("running")).toEqual({ prepare: false, run: false, busy: true });
    expect(startable("preparing")).toEqual({ prepare: false, run: false, busy: true });
  });
});
