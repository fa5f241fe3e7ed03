import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { mbw } from "./mbw.js";

const { fixture, ctx } = recordedOutput("mbw");

describe("mbw parser", () => {
  it("reads the mean of the runs, not each run", () => {
    const tags = { method: "memcpy" };
    expect(mbw(fixture("memcpy"), ctx("memcpy"))).toEqual([
      { name: "copy_bandwidth", value: 11476.527, unit: "MiB/s", tags },
      { name: "copy_seconds", value: 0.02231, unit: "s", tags },
    ]);
  });

  it("tags each method", () => {
    expect(mbw(fixture("dumb"), ctx("dumb"))[0]?.tags).toEqual({ method: "dumb" });
    expect(mbw(fixture("mcblock"), ctx("mcblock"))[0]).toEqual({
      name: "copy_bandwidth",
      value: 12400.938,
      unit: "MiB/s",
      tags: { method: "mcblock" },
    });
  });

  it("gives [] for an unfinished run and garbage", () => {
    const full = fixture("memcpy");
    expect(mbw(full.slice(0, full.indexOf("AVG")), ctx("memcpy"))).toEqual([]);
    expect(mbw("Error: memory allocation failed", ctx("memcpy"))).toEqual([]);
    expect(mbw("", ctx("memcpy"))).toEqual([]);
  });
});
