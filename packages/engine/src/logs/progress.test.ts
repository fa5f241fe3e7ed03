import { describe, expect, it } from "vitest";
import { ProgressReporter } from "./progress.js";

describe("ProgressReporter", () => {
  it("reports the first change at once, holds the next ones for the interval, and always says the last", () => {
    let bytes = 0;
    const reports: number[] = [];
    // An interval no test run reaches: what is held stays held until finish.
    const progress = new ProgressReporter(
      () => bytes,
      (n) => reports.push(n),
      60_000,
    );
    for (let i = 0; i < 1000; i++) {
      bytes += 10;
      progress.changed();
    }
    expect(reports).toEqual([10]);
    progress.finish();
    expect(reports).toEqual([10, 10_000]);
    // Nothing new: nothing said.
    progress.finish();
    expect(reports).toEqual([10, 10_000]);
  });

  it("survives a hook that throws", () => {
    const progress = new ProgressReporter(
      () => 1,
      () => {
        throw new Error("not the log's problem");
      },
    );
    expect(() => progress.changed()).not.toThrow();
    expect(() => progress.finish()).not.toThrow();
  });
});
