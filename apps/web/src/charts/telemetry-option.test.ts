import type { LineSeriesOption } from "echarts/charts";
import type { TelemetrySample } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { telemetryOption } from "./telemetry-option.js";

const sample = (at: string, steal: number, runQueue: number): TelemetrySample => ({
  at,
  cpu_user: 40,
  cpu_system: 5,
  cpu_iowait: 1,
  cpu_steal: steal,
  cpu_idle: 54 - steal,
  run_queue: runQueue,
  mem_used_bytes: 1e9,
  mem_available_bytes: 3e9,
  disk_read_bytes_per_s: 0,
  disk_write_bytes_per_s: 4096,
  net_rx_bytes_per_s: 100,
  net_tx_bytes_per_s: 50,
});

describe("telemetryOption", () => {
  it("draws the CPU's kinds of time over the run's seconds, and the run queue against the CPU count", () => {
    const option = telemetryOption({
      cpus: 2,
      samples: [sample("2026-11-21T10:15:03.000Z", 10, 1), sample("2026-11-21T10:15:04.004Z", 30, 5), sample("2026-11-21T10:15:05.000Z", 0, 0)],
    });
    const series = option.series as LineSeriesOption[];
    expect(series.map((s) => s.name)).toEqual(["user %", "system %", "iowait %", "steal %", "run queue"]);
    // Seconds from the first sample, to a tenth.
    expect(series[3].data).toEqual([
      [0, 10],
      [1, 30],
      [2, 0],
    ]);
    const queue = series[4];
    expect(queue.yAxisIndex).toBe(1);
    expect(queue.data).toEqual([
      [0, 1],
      [1, 5],
      [2, 0],
    ]);
    expect(queue.markLine?.data).toEqual([{ yAxis: 2 }]);
  });

  it("draws empty lines for a machine without samples", () => {
    const series = telemetryOption({ cpus: 4, samples: [] }).series as LineSeriesOption[];
    expect(series.every((s) => Array.isArray(s.data) && s.data.length === 0)).toBe(true);
  });

  it("draws a short repetition from its start: samples 30 ms apart on their own x, the first a second in", () => {
    const option = telemetryOption({
      cpus: 2,
      samples: [
        { ...sample("2026-11-21T10:15:04.000Z", 10, 1), from: "2026-11-21T10:15:03.000Z" },
        { ...sample("2026-11-21T10:15:04.030Z", 30, 2), from: "2026-11-21T10:15:04.000Z" },
      ],
    });
    const series = option.series as LineSeriesOption[];
    expect(series[3].data).toEqual([
      [1, 10],
      [1.03, 30],
    ]);
    expect(option.xAxis).toMatchObject({ min: 0 });
  });

  it("writes the CPU count's label inside the plot, off the run queue axis' tick of the same number", () => {
    const queue = (telemetryOption({ cpus: 2, samples: [sample("2026-11-21T10:15:03.000Z", 10, 1)] }).series as LineSeriesOption[])[4];
    expect(queue.markLine?.label).toMatchObject({ formatter: "2 CPUs", position: "insideEndTop" });
  });
});
