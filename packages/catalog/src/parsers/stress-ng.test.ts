import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { stressNg } from "./stress-ng.js";

const { fixture, ctx } = recordedOutput("stress-ng");

describe("stress-ng parser", () => {
  it("reads bogo ops and rates of the cpu stressor", () => {
    const tags = { stressor: "cpu" };
    expect(stressNg(fixture("cpu"), ctx("cpu"))).toEqual([
      { name: "bogo_ops", value: 6529, unit: "ops", tags },
      { name: "real_time", value: 2, unit: "s", tags },
      { name: "usr_time", value: 3.7, unit: "s", tags },
      { name: "sys_time", value: 0, unit: "s", tags },
      { name: "bogo_ops_per_second_real", value: 3262.97, unit: "ops/s", tags },
      { name: "bogo_ops_per_second_usr_sys", value: 1761.74, unit: "ops/s", tags },
    ]);
  });

  it("reads the vm stressor", () => {
    const m = stressNg(fixture("vm"), ctx("vm"));
    expect(m.find((x) => x.name === "bogo_ops_per_second_real")).toEqual({
      name: "bogo_ops_per_second_real",
      value: 40700.67,
      unit: "ops/s",
      tags: { stressor: "vm" },
    });
    expect(m.find((x) => x.name === "bogo_ops")?.value).toBe(81753);
  });

  it("gives [] for a failed or unfinished run and garbage", () => {
    expect(stressNg(fixture("failed-bad-method"), ctx("vm"))).toEqual([]);
    const full = fixture("cpu");
    expect(stressNg(full.replace("successful run completed", "unsuccessful run completed"), ctx("cpu"))).toEqual([]);
    expect(stressNg(full.slice(0, full.indexOf("successful run")), ctx("cpu"))).toEqual([]);
    expect(stressNg("", ctx("cpu"))).toEqual([]);
  });
});
