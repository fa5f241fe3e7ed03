import type { TelemetryTrack } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { stealAndIowait, stealAndIowaitText, trackTitle } from "./telemetry-figures.js";

const track = (machine_id: string, steal: [number, number], iowait: number, samples = 3): TelemetryTrack => ({
  machine_id,
  role: null,
  repetition: 1,
  cpus: 2,
  summary: [
    { name: "cpu_steal_mean", value: steal[0], unit: "%" },
    { name: "cpu_steal_max", value: steal[1], unit: "%" },
    { name: "cpu_iowait_mean", value: iowait, unit: "%" },
  ],
  samples: Array.from({ length: samples }, () => ({}) as TelemetryTrack["samples"][number]),
});

describe("stealAndIowait", () => {
  it("takes the worst machine's steal and iowait", () => {
    const s = stealAndIowait({ machines: [track("a", [2.5, 10], 0.3), track("b", [1, 4], 1.5)] });
    expect(s).toEqual({ stealMean: 2.5, stealMax: 10, iowaitMean: 1.5 });
    expect(stealAndIowaitText(s)).toBe("steal 2.5% (max 10%), iowait 1.5%");
  });

  it("says nothing of a run that took no samples", () => {
    expect(stealAndIowait(undefined)).toBeUndefined();
    expect(stealAndIowait({ machines: [track("a", [0, 0], 0, 0)] })).toBeUndefined();
    expect(stealAndIowaitText(undefined)).toBe("");
  });
});

describe("trackTitle", () => {
  it("names the machine, its role and, in a repeated run, its repetition", () => {
    expect(trackTitle({ machine_id: "m1", role: null, repetition: 1 }, false)).toBe("m1");
    expect(trackTitle({ machine_id: "m2", role: "client", repetition: 3 }, true)).toBe("m2, role client, repetition 3");
  });
});
