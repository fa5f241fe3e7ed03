import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import type { Metric } from "../types.js";
import { fio } from "./fio.js";

const { fixture, ctx } = recordedOutput("fio");
const byName = (metrics: Metric[]) => Object.fromEntries(metrics.map((m) => [m.name, m]));

describe("fio parser", () => {
  it("reads the read side of randread", () => {
    const m = fio(fixture("randread"), ctx("randread"));
    expect(m.every((x) => x.tags?.direction === "read")).toBe(true);
    const b = byName(m);
    expect(b.iops).toEqual({ name: "iops", value: 17037.987338, unit: "IO/s", tags: { direction: "read" } });
    expect(b.bandwidth).toMatchObject({ value: 68151, unit: "KiB/s" });
    expect(b.lat_mean_us).toMatchObject({ value: 468.262, unit: "us" });
    expect(b.clat_mean_us).toMatchObject({ value: 411.531, unit: "us" });
    expect(b.clat_p50_us).toMatchObject({ value: 354.304, unit: "us" });
    expect(b.clat_p95_us).toMatchObject({ value: 528.384, unit: "us" });
    expect(b.clat_p99_us).toMatchObject({ value: 1597.44, unit: "us" });
    expect(m).toHaveLength(7);
  });

  it("reads the write side of randwrite, seqwrite and the read side of seqread", () => {
    const rw = byName(fio(fixture("randwrite"), ctx("randwrite")));
    expect(rw.iops).toMatchObject({ value: 108038.575668, tags: { direction: "write" } });
    expect(rw.clat_p99_us).toMatchObject({ value: 168.96 });
    const sw = byName(fio(fixture("seqwrite"), ctx("seqwrite")));
    expect(sw.bandwidth).toMatchObject({ value: 6701211, unit: "KiB/s", tags: { direction: "write" } });
    const sr = byName(fio(fixture("seqread"), ctx("seqread")));
    expect(sr.iops).toMatchObject({ value: 1676.774409, tags: { direction: "read" } });
    expect(sr.clat_p50_us).toMatchObject({ value: 1449.984 });
  });

  it("finds the JSON after warning lines and ignores a failed job", () => {
    const failed = fixture("failed-bad-path");
    expect(failed.startsWith("fio: pid=0")).toBe(true);
    expect(fio(failed, ctx("randread"))).toEqual([]);
    expect(fio(`fio: some warning\n${fixture("randread")}\n[benchwright] done\n`, ctx("randread"))).toHaveLength(7);
  });

  it("gives [] for truncated output and garbage", () => {
    const full = fixture("randread");
    expect(fio(full.slice(0, full.length / 2), ctx("randread"))).toEqual([]);
    expect(fio("", ctx("randread"))).toEqual([]);
    expect(fio("{ not json }\n{}\n", ctx("randread"))).toEqual([]);
  });
});
